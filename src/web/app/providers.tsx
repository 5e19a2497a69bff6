import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            // The client already retries transient failures; React Query adds none on top,
            // and never retries a refused key.
            // (By name: importing the classes would pull the client and zod into the shell.)
            retry: (count, err) =>
              !['AuthenticationError', 'APIUserAbortError'].includes(err.name) && count < 1,
            refetchOnWindowFocus: false,
          },
        },
      }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
