import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp } from '../test/render';
import { ErrorBoundary } from './error-boundary';
import { ErrorScreen } from './error-screens';
import { preloadToastViewport } from './toast/toast-provider';

let shouldThrow = true;
function Fragile() {
  if (shouldThrow) throw new Error('Broken widget');
  return <p>Widget works</p>;
}

function Harness() {
  return (
    <ErrorBoundary
      fallback={({ errorId, reset }) => <ErrorScreen errorId={errorId} onReset={reset} />}
    >
      <Fragile />
    </ErrorBoundary>
  );
}

describe('the error screen', () => {
  it('shows a generated error ID, Try Again recovers, and Report Bug drafts a mail with the ID', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    shouldThrow = true;
    renderWithApp(<Harness />, { path: '/profile', supportEmail: 'help@bdms.example' });

    expect(screen.getByRole('heading', { name: 'Oops! Something went wrong' })).toBeInTheDocument();
    const idText = screen.getByText(/^Error ID: ERR-/).textContent ?? '';
    const errorId = idText.replace('Error ID: ', '');
    expect(errorId).toMatch(/^ERR-[0-9A-Z]+-[0-9A-Z]{6}$/);

    const report = screen.getByRole('link', { name: 'Report Bug' });
    const href = report.getAttribute('href') ?? '';
    expect(href.startsWith('mailto:help@bdms.example?')).toBe(true);
    const params = new URLSearchParams(href.slice(href.indexOf('?') + 1));
    expect(params.get('subject')).toContain(errorId);
    expect(params.get('body')).toContain(errorId);
    expect(params.get('body')).toContain(`${window.location.origin}${window.location.pathname}`);
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');

    shouldThrow = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByText('Widget works')).toBeInTheDocument();
    expect(screen.queryByText('Oops! Something went wrong')).not.toBeInTheDocument();
  });

  it('never shows a toast for a render error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    shouldThrow = true;
    // Where toasts show arrives after the first page; here it is there from the start.
    await preloadToastViewport();
    renderWithApp(<Harness />);
    expect(screen.getByRole('heading', { name: 'Oops! Something went wrong' })).toBeInTheDocument();
    expect(document.querySelector('[aria-live="assertive"]')).toBeEmptyDOMElement();
  });
});
