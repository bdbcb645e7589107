import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Link, Outlet, RouterProvider } from 'react-router';
import { Suspense } from 'react';
import { PageBoundary } from '../components/boundaries';
import { importWithRetry, lazyWithRetry, ChunkLoadError } from './lazy-with-retry';

const module = { default: () => <p>Loaded</p> };

describe('importWithRetry', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('succeeds on the 3rd attempt after waiting 1 s and then 2 s', async () => {
    const importer = vi
      .fn<() => Promise<typeof module>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(module);
    const result = importWithRetry('about', importer);

    await vi.advanceTimersByTimeAsync(0);
    expect(importer).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(importer).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(importer).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(importer).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(importer).toHaveBeenCalledTimes(3);
    await expect(result).resolves.toBe(module);
  });

  it('gives up after 3 retries (waits of 1 s, 2 s and 3 s) with the spec message', async () => {
    const importer = vi.fn<() => Promise<typeof module>>().mockRejectedValue(new Error('offline'));
    const result = importWithRetry('about', importer);
    const settled = result.catch((error: unknown) => error);

    await vi.advanceTimersByTimeAsync(1000 + 2000 + 2999);
    expect(importer).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(importer).toHaveBeenCalledTimes(4);

    const error = await settled;
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as Error).message).toBe('Failed to load chunk about after 3 attempts');
  });

  it('treats an attempt that hangs for 120 s as failed and tries again', async () => {
    const importer = vi
      .fn<() => Promise<typeof module>>()
      .mockReturnValueOnce(new Promise(() => {}))
      .mockResolvedValueOnce(module);
    const result = importWithRetry('about', importer);

    await vi.advanceTimersByTimeAsync(119_999);
    expect(importer).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1 + 1000);
    expect(importer).toHaveBeenCalledTimes(2);
    await expect(result).resolves.toBe(module);
  });
});

describe('a lazily loaded page that cannot be downloaded', () => {
  it('shows "Page Unavailable", and Try Again loads it once the network is back', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let online = false;
    const importer = vi.fn(() =>
      online ? Promise.resolve(module) : Promise.reject(new Error('Failed to fetch')),
    );
    const Page = lazyWithRetry('education', importer);
    const router = createMemoryRouter([
      {
        path: '/',
        element: (
          <Suspense fallback={<p>Loading page...</p>}>
            <PageBoundary page="Learn About Blood Donation">
              <Page />
            </PageBoundary>
          </Suspense>
        ),
      },
    ]);
    render(<RouterProvider router={router} />);

    await vi.advanceTimersByTimeAsync(6000);
    expect(await screen.findByRole('heading', { name: 'Page Unavailable' })).toBeInTheDocument();
    expect(
      screen.getByText(
        "Sorry, we couldn't load the Learn About Blood Donation page. This might be due to a network issue.",
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeInTheDocument();

    online = true;
    vi.useRealTimers();
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Loaded')).toBeInTheDocument();
  });
});

describe('navigating inside the app to a page that cannot be downloaded', () => {
  it('tries 4 times in all (waits of 1, 2 and 3 s), not a second round when the error arrives', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const importer = vi.fn(() => Promise.reject(new Error('Failed to fetch')));
    const Page = lazyWithRetry('about', importer);
    const router = createMemoryRouter([
      {
        path: '/',
        element: (
          <Suspense fallback={<p>Loading page...</p>}>
            <PageBoundary page="About Us">
              <Outlet />
            </PageBoundary>
          </Suspense>
        ),
        children: [
          { index: true, element: <Link to="/about">About</Link> },
          { path: 'about', element: <Page /> },
        ],
      },
    ]);
    render(<RouterProvider router={router} />);

    await userEvent.click(screen.getByRole('link', { name: 'About' }), {
      advanceTimers: (ms) => vi.advanceTimersByTime(ms),
    });
    await vi.advanceTimersByTimeAsync(6000);
    expect(await screen.findByRole('heading', { name: 'Page Unavailable' })).toBeInTheDocument();
    expect(importer).toHaveBeenCalledTimes(4);
    // Nothing more is asked for while the message is up.
    await vi.advanceTimersByTimeAsync(12_000);
    expect(importer).toHaveBeenCalledTimes(4);
    vi.useRealTimers();
  });
});
