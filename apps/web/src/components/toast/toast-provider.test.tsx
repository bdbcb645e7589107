import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { ToastProvider, preloadToastViewport } from './toast-provider';
import { useToast, type ToastApi } from './toast-context';

let toast: ToastApi;
function Capture() {
  toast = useToast();
  return null;
}

function renderToasts() {
  render(
    <ToastProvider>
      <Capture />
    </ToastProvider>,
  );
}

describe('toasts', () => {
  // Where toasts show is loaded after the first page; here it is there from the start.
  beforeAll(async () => {
    await preloadToastViewport();
  });
  beforeEach(() => {
    vi.useFakeTimers();
    renderToasts();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    ['success', 5000],
    ['info', 5000],
    ['warning', 6000],
    ['error', 7000],
  ] as const)('a %s toast closes itself after %i ms', (type, duration) => {
    act(() => {
      toast.show({ type, title: `A ${type} toast`, message: 'Details' });
    });
    expect(screen.getByText(`A ${type} toast`)).toBeInTheDocument();
    expect(screen.getByText('Details')).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(duration - 1));
    expect(screen.getByText(`A ${type} toast`)).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText(`A ${type} toast`)).not.toBeInTheDocument();
  });

  it('keeps a given duration instead of the default', () => {
    act(() => {
      toast.success('Saved', { duration: 1000 });
    });
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });

  it('announces errors assertively and the rest politely', () => {
    act(() => {
      toast.error('Could not send');
      toast.info('Good to know');
    });
    expect(screen.getByText('Could not send').closest('[aria-live]')).toHaveAttribute(
      'aria-live',
      'assertive',
    );
    expect(screen.getByText('Good to know').closest('[aria-live]')).toHaveAttribute(
      'aria-live',
      'polite',
    );
  });

  it('runs the action and closes the toast when its action button is pressed', () => {
    const onUndo = vi.fn();
    act(() => {
      toast.info('Availability turned off', { action: { label: 'Undo', onClick: onUndo } });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(onUndo).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('Availability turned off')).not.toBeInTheDocument();
  });

  it('closes at once with the dismiss button', () => {
    act(() => {
      toast.warning('Almost there');
    });
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByText('Almost there')).not.toBeInTheDocument();
  });

  it('pauses while the pointer rests on it', () => {
    act(() => {
      toast.success('Saved');
    });
    fireEvent.mouseEnter(screen.getByText('Saved'));
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.getByText('Saved')).toBeInTheDocument();
    fireEvent.mouseLeave(screen.getByText('Saved'));
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });
});
