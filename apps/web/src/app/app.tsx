import { RouterProvider, type createBrowserRouter } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { AppProviders } from './providers';

export function App({
  queryClient,
  router,
}: {
  queryClient: QueryClient;
  router: ReturnType<typeof createBrowserRouter>;
}) {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
