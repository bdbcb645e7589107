import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { lazyWithRetry } from '../../lib/lazy-with-retry';
import { renderRoutes } from '../../test/render';
import { RootLayout } from './root-layout';

describe('RootLayout', () => {
  it('shows "Loading page..." while a page\'s code downloads', async () => {
    let finishLoading: () => void = () => {};
    const SlowPage = lazyWithRetry(
      'slow',
      () =>
        new Promise<{ default: () => ReactNode }>((resolve) => {
          finishLoading = () => resolve({ default: () => <h1>Slow page</h1> });
        }),
    );
    renderRoutes([{ element: <RootLayout />, children: [{ path: '/', element: <SlowPage /> }] }]);

    expect(await screen.findByRole('status')).toHaveTextContent('Loading page...');
    finishLoading();
    expect(await screen.findByRole('heading', { name: 'Slow page' })).toBeInTheDocument();
    expect(screen.queryByText('Loading page...')).not.toBeInTheDocument();
  });
});
