import { useInfo } from '../api/account.ts';
import { useOutage, type Outage } from '../api/connectivity.ts';

type Mode = 'mock' | 'upstream';

/**
 * What happens to tasks already sent while Kiln's server is away, in each mode (issue 32, item 6;
 * decision 0100): the built-in mock runs inside Kiln, so it stops with it and starts its tasks
 * again from the beginning when Kiln is back (their charge stands, once); a real upstream is
 * elsewhere and keeps them running. Before the mode is known, neither is claimed.
 */
const KILN_WORDS: Record<Mode | 'unknown', string> = {
  mock: 'Kiln’s server cannot be reached. Its built-in mock upstream stopped with it: tasks under way start again from the beginning when Kiln is back (charged once). This page reconnects by itself.',
  upstream:
    'Kiln’s server cannot be reached. Tasks already sent keep running upstream; this page reconnects by itself and catches up.',
  unknown: 'Kiln’s server cannot be reached. This page reconnects by itself.',
};

/** The banner's sentence for an outage in a mode (`undefined`: the mode is not known yet). */
export function outageWords(outage: Outage, mode: Mode | undefined): string {
  switch (outage.kind) {
    case 'kiln':
      return KILN_WORDS[mode ?? 'unknown'];
    case 'upstream':
      return 'The image-to-3D service cannot be reached through Kiln just now. Your tasks resume when it answers again.';
    case 'storage':
      return `${outage.message} ${mode === 'mock' ? 'Tasks keep running in the built-in mock upstream' : 'Tasks keep running upstream'}; this page catches up by itself.`;
  }
}

/**
 * Says, over every page, what cannot be reached right now, and goes away by itself when it can
 * be again (api/connectivity.ts probes every few seconds). It sits in the app's sticky top bar,
 * under the header, so it stays in the viewport however far the page is scrolled.
 */
export function ConnectionBanner() {
  const outage = useOutage();
  const info = useInfo();
  return (
    <div role="status" aria-live="polite" className="connection-slot">
      {outage && (
        <p className="connection-banner" data-testid="connection-banner" data-kind={outage.kind}>
          <span aria-hidden="true">⚠</span> {outageWords(outage, info.data?.mode)}
        </p>
      )}
    </div>
  );
}
