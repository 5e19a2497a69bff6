import { useOutage, type Outage } from '../api/connectivity.ts';

const WORDS: Record<Outage['kind'], string> = {
  kiln: 'Kiln’s server cannot be reached. Tasks already sent keep running upstream; this page reconnects by itself.',
  upstream:
    'The image-to-3D service cannot be reached through Kiln just now. Your tasks resume when it answers again.',
  storage: '',
};

/**
 * Says, above every page, what cannot be reached right now, and goes away by itself when it
 * can be again (lib/connectivity.ts probes every few seconds).
 */
export function ConnectionBanner() {
  const outage = useOutage();
  return (
    <div role="status" aria-live="polite" className="connection-slot">
      {outage && (
        <p className="connection-banner" data-testid="connection-banner" data-kind={outage.kind}>
          <span aria-hidden="true">⚠</span>{' '}
          {outage.kind === 'storage'
            ? `${outage.message} Tasks keep running upstream; this page catches up by itself.`
            : WORDS[outage.kind]}
        </p>
      )}
    </div>
  );
}
