import type { ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ErrorBoundary } from '../components/error-boundary';
import { ErrorScreen } from '../components/error-screens';
import { ToastProvider } from '../components/toast';
import { AuthProvider } from '../features/auth';
import { releasePushSubscription } from '../features/notifications/release-push';

export function AppProviders({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <ErrorBoundary
        fallback={({ errorId }) => (
          <ErrorScreen errorId={errorId} onReset={() => window.location.reload()} />
        )}
      >
        <ToastProvider>
          <AuthProvider releaseDevice={releasePushSubscription}>{children}</AuthProvider>
        </ToastProvider>
      </ErrorBoundary>
    </QueryClientProvider>
  );
}
