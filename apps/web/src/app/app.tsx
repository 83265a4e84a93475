import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { ErrorBoundary } from '@/components/ui/error-boundary';
import { createQueryClient } from '@/lib/query-client';
import { AppProvider } from './provider';
import { navigation } from './navigation';
import { createAppRouter } from './router';

/** The application root: providers, then the router with the console's routes. */
export function App() {
  // Created once per mounted app rather than at module load, so nothing leaks between tests.
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createAppRouter(navigation));
  return (
    // Outermost net: catches a crash in the providers themselves; pages have the router's.
    <ErrorBoundary>
      <AppProvider queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProvider>
    </ErrorBoundary>
  );
}
