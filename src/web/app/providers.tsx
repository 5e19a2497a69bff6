import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { AuthenticationError, APIUserAbortError } from '../../client/index.ts';

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            // The client already retries transient failures; React Query adds none on top,
            // and never retries a refused key.
            retry: (count, err) =>
              !(err instanceof AuthenticationError || err instanceof APIUserAbortError) &&
              count < 1,
            refetchOnWindowFocus: false,
          },
        },
      }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
