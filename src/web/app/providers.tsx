import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { onRecovered, reportError } from '../api/connectivity.ts';
import { announce, onAnnounced } from '../lib/tab-sync.ts';

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        // Every failure says whether something cannot be reached (the banner), and every change
        // made here is told to the other tabs.
        queryCache: new QueryCache({ onError: reportError }),
        mutationCache: new MutationCache({
          onError: reportError,
          onSuccess: () => announce(),
        }),
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
  useEffect(() => {
    const refresh = () => {
      void client.invalidateQueries({ queryKey: ['library'] });
      void client.invalidateQueries({ queryKey: ['credits'] });
    };
    // Back from an outage: everything that failed is asked again.
    onRecovered(() => void client.invalidateQueries());
    return onAnnounced(refresh);
  }, [client]);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
