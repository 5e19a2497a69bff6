// The share dialog for the whole app: features offer "Share" (src/web/ui/share-button.tsx), and
// this opens the dialog of features/share for them, loading it the first time it is used.
import { lazy, Suspense, useEffect, useState } from 'react';
import { provideShareDialog, type ShareTarget } from '../ui/share-button.tsx';

const ShareDialog = lazy(() => import('../features/share/share-dialog.tsx'));

export function ShareHost() {
  const [target, setTarget] = useState<ShareTarget | null>(null);
  useEffect(() => provideShareDialog(setTarget), []);
  if (!target) return null;
  return (
    <Suspense fallback={null}>
      <ShareDialog key={target.id} target={target} onClose={() => setTarget(null)} />
    </Suspense>
  );
}
