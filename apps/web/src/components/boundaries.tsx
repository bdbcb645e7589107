import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { isChunkLoadError, resetFailedChunks } from '../lib/lazy-with-retry';
import { ErrorBoundary } from './error-boundary';
import { FeatureUnavailable, LoadingError, PageUnavailable } from './error-screens';

/**
 * Three levels of "the code did not arrive" (product spec section 2). Each handles only chunk
 * failures; any other error goes up to the error screen.
 */
function rethrowUnlessChunkError(error: Error, fallback: ReactNode): ReactNode {
  if (!isChunkLoadError(error)) throw error;
  return fallback;
}

/** Around a lazily loaded part of a page: "Loading Error" with Refresh Page. */
export function ComponentBoundary({ children }: { children: ReactNode }) {
  return (
    <ErrorBoundary fallback={({ error }) => rethrowUnlessChunkError(error, <LoadingError />)}>
      {children}
    </ErrorBoundary>
  );
}

/** Around an optional feature: "Feature temporarily unavailable". */
export function FeatureBoundary({ children }: { children: ReactNode }) {
  return (
    <ErrorBoundary fallback={({ error }) => rethrowUnlessChunkError(error, <FeatureUnavailable />)}>
      {children}
    </ErrorBoundary>
  );
}

/** Around a lazily loaded route: "Page Unavailable" with Try Again and Go Back. */
export function PageBoundary({ page, children }: { page: string; children: ReactNode }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const goBack = () => {
    // React Router keeps the history position in `idx`; with nothing behind us, go home.
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate('/');
  };
  return (
    <ErrorBoundary
      resetKeys={[pathname]}
      onReset={resetFailedChunks}
      fallback={({ error, reset }) =>
        rethrowUnlessChunkError(
          error,
          <PageUnavailable page={page} onRetry={reset} onBack={goBack} />,
        )
      }
    >
      {children}
    </ErrorBoundary>
  );
}
