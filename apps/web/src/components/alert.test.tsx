import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { ALERT_POSITIONS } from '@bdms/shared';
import { Alert } from './alert';
import { AlertList } from './alert-list';

describe('Alert', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows its title and message, with the role that matches its urgency', () => {
    render(<Alert variant="error" title="Could not save" message="Check your connection." />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Could not save');
    expect(alert).toHaveTextContent('Check your connection.');

    render(<Alert variant="success" title="Saved" />);
    expect(screen.getByRole('status')).toHaveTextContent('Saved');
  });

  it('hides at once when dismissed and calls onDismiss 200 ms later, not before', () => {
    const onDismiss = vi.fn();
    render(<Alert variant="info" title="You are hidden" onDismiss={onDismiss} />);

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss alert' }));
    expect(screen.queryByText('You are hidden')).not.toBeInTheDocument();
    expect(onDismiss).not.toHaveBeenCalled();

    act(() => vi.advanceTimersByTime(199));
    expect(onDismiss).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });

  it('is dismissible by default, and not when told so', () => {
    render(<Alert title="Dismissible" />);
    expect(screen.getByRole('button', { name: 'Dismiss alert' })).toBeInTheDocument();

    render(<Alert title="Fixed" dismissible={false} />);
    expect(screen.getAllByRole('button', { name: 'Dismiss alert' })).toHaveLength(1);
  });
});

describe('AlertList', () => {
  const alerts = [
    { id: 'a', variant: 'success' as const, title: 'First' },
    { id: 'b', variant: 'warning' as const, title: 'Second' },
  ];

  it('floats at the top right by default', () => {
    render(<AlertList alerts={alerts} />);
    const list = screen.getByText('First').closest('[data-position]');
    expect(list).toHaveAttribute('data-position', 'top-right');
    expect(list).toHaveClass('top-4', 'right-4');
  });

  it.each(ALERT_POSITIONS)('can be placed %s', (position) => {
    render(<AlertList alerts={alerts} position={position} />);
    expect(screen.getByText('Second').closest('[data-position]')).toHaveAttribute(
      'data-position',
      position,
    );
  });

  it('reports which alert was dismissed', () => {
    vi.useFakeTimers();
    const onDismiss = vi.fn();
    render(<AlertList alerts={alerts} onDismiss={onDismiss} />);
    fireEvent.click(screen.getAllByRole('button', { name: 'Dismiss alert' })[1]!);
    act(() => vi.advanceTimersByTime(200));
    expect(onDismiss).toHaveBeenCalledWith('b');
    vi.useRealTimers();
  });
});
