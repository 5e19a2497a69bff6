import { lazy, Suspense, useEffect } from 'react';
import { useInfo } from '../api/account.ts';
import { KeyChip } from '../features/key/key-chip.tsx';
import { firstPaintShown } from '../lib/inline-share.ts';
import { useApiKey } from '../lib/key-store.ts';
import { ConnectionBanner } from '../ui/connection-banner.tsx';
import { ErrorBoundary } from '../ui/error-boundary.tsx';
import { Link } from '../ui/link.tsx';
import { usePathname, useRoute } from '../lib/router.ts';

// Every page (and the balance, which parses with zod) is its own chunk: the shell that
// index.html loads is React, React Query and this file, within the 100 KB budget.
// The collections dialog's host, loaded beside the page (not in the shell: the collections
// feature brings the contract and zod with it).
const CollectionsDialogHost = lazy(() =>
  import('../features/collections/index.ts').then((m) => ({ default: m.CollectionsDialogHost })),
);
const KeyScreen = lazy(() =>
  import('../features/key/key-screen.tsx').then((m) => ({ default: m.KeyScreen })),
);
const StudioPage = lazy(() =>
  import('../features/studio/studio-page.tsx').then((m) => ({ default: m.StudioPage })),
);
const TaskPage = lazy(() =>
  import('../features/tasks/task-page.tsx').then((m) => ({ default: m.TaskPage })),
);
const BalanceChip = lazy(() =>
  import('../features/credits/balance-chip.tsx').then((m) => ({ default: m.BalanceChip })),
);
const GalleryPage = lazy(() => import('../features/library/gallery-page.tsx'));
const CreditsPage = lazy(() => import('../features/credits/credits-page.tsx'));
const ViewerPage = lazy(() => import('../features/viewer/viewer-page.tsx'));
const OptimisePage = lazy(() => import('../features/optimise/optimise-page.tsx'));
const BatchPage = lazy(() => import('../features/batch/batch-page.tsx'));
const SharePage = lazy(() => import('../features/share/share-page.tsx'));
const ConnectionsPage = lazy(() => import('../features/connections/connections-page.tsx'));
const ProviderBalanceChips = lazy(() =>
  import('../features/connections/provider-balance-chips.tsx').then((m) => ({
    default: m.ProviderBalanceChips,
  })),
);
const CollectionPage = lazy(() => import('../features/collections/collection-page.tsx'));

const NAV = [
  { href: '/', label: 'Studio' },
  { href: '/batch', label: 'Batch' },
  { href: '/gallery', label: 'Gallery' },
  { href: '/credits', label: 'Credits' },
  { href: '/connections', label: 'Connections' },
  { href: '/viewer', label: 'Viewer' },
] as const;

export function App() {
  const key = useApiKey();
  const info = useInfo();
  const route = useRoute();
  const pathname = usePathname();

  useEffect(() => {
    if (
      route.page !== 'studio' &&
      route.page !== 'task' &&
      route.page !== 'viewer' &&
      route.page !== 'optimise' &&
      route.page !== 'batch' &&
      route.page !== 'share' &&
      route.page !== 'collection' &&
      route.page !== 'connections'
    )
      document.title = `${route.page === 'gallery' ? 'Gallery' : route.page === 'credits' ? 'Credits' : 'Not found'} · Kiln`;
  }, [route.page]);

  // A shared model's public page: no key, no nav, no balance (embedded: no chrome at all).
  if (route.page === 'share')
    return (
      <ErrorBoundary resetKey={pathname}>
        {/* While the server's first paint of the page shows (its picture is painted), nothing
            under it: the page removes it as it draws itself in the same place. */}
        <Suspense fallback={firstPaintShown() ? null : <p className="page muted">Loading…</p>}>
          <SharePage token={route.token} embed={route.embed} />
        </Suspense>
      </ErrorBoundary>
    );

  // A shared collection's public page: the same, with its models' pictures and one in a viewer.
  if (route.page === 'collection')
    return (
      <ErrorBoundary resetKey={pathname}>
        <Suspense fallback={<p className="page muted">Loading…</p>}>
          <CollectionPage token={route.token} embed={route.embed} />
        </Suspense>
      </ErrorBoundary>
    );

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {/* The header and the outage banner stick together: the banner is in the viewport, under
          the header, however far the page scrolls (issue 32, item 5). */}
      <div className="app-top">
        <header className="app-header">
          <Link href="/" className="brand" aria-label="Kiln, home">
            <img src="/favicon.svg" alt="" width="22" height="22" /> Kiln
          </Link>
          {info.data?.mode === 'mock' && (
            <span className="badge" title="Generations are made by Kiln’s built-in mock upstream">
              Demo upstream
            </span>
          )}
          {key && (
            <>
              <nav aria-label="Main">
                {NAV.map((n) => (
                  <Link
                    key={n.href}
                    href={n.href}
                    aria-current={pathname === n.href ? 'page' : undefined}
                  >
                    {n.label}
                  </Link>
                ))}
              </nav>
              <div className="header-end">
                <Suspense fallback={<span className="balance-chip">—</span>}>
                  <BalanceChip />
                </Suspense>
                <Suspense fallback={null}>
                  <ProviderBalanceChips />
                </Suspense>
                <KeyChip />
              </div>
            </>
          )}
        </header>
        <ConnectionBanner />
      </div>
      <div id="main" tabIndex={-1}>
        {/* The viewer needs no key for files from this device; a provider's key needs none either. */}
        {!key && route.page !== 'viewer' && route.page !== 'connections' ? (
          <Suspense fallback={<p className="page muted">Loading…</p>}>
            <KeyScreen />
          </Suspense>
        ) : (
          <ErrorBoundary resetKey={pathname}>
            <Suspense fallback={<p className="page muted">Loading…</p>}>
              {route.page === 'studio' && <StudioPage />}
              {route.page === 'task' && <TaskPage id={route.id} />}
              {route.page === 'gallery' && <GalleryPage />}
              {route.page === 'credits' && <CreditsPage />}
              {route.page === 'viewer' && <ViewerPage />}
              {route.page === 'optimise' && <OptimisePage id={route.id} />}
              {route.page === 'batch' && <BatchPage />}
              {route.page === 'connections' && <ConnectionsPage />}
              {route.page === 'not-found' && (
                <main className="page">
                  <h1>Nothing here</h1>
                  <p>
                    <Link href="/">Back to the studio</Link>
                  </p>
                </main>
              )}
            </Suspense>
          </ErrorBoundary>
        )}
        {/* A model's collections dialog outlives its card (collections-button.tsx). */}
        {key && (
          <Suspense fallback={null}>
            <CollectionsDialogHost />
          </Suspense>
        )}
      </div>
    </div>
  );
}
