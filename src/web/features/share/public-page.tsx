// What the public pages (a shared model's, share-page.tsx; a shared collection's, the collections
// feature's collection-page.tsx) have in common: the top bar, the load failure, the page of a link
// that does not work, the "Made with Kiln" line, and a model's facts.
import { factsLine as madeFacts } from '../../../contract/model-title.ts';
import { formatDate } from '../../lib/entry-format.ts';
import { describeError } from '../../lib/describe-error.ts';
import './public-page.css';

/** "From a prompt · beta-text · 24 Nov 2026", the day in the reader's locale. */
export const factsLine = (model: { input: string; model: string; created: number }) =>
  madeFacts(model, (seconds) => formatDate(seconds * 1000));

/** The page's top bar: where it was made, and what is shared ("model", "collection"). */
export function PublicHead({ what }: { what: string }) {
  return (
    <header className="public-page__head">
      <a href="/" className="brand" aria-label="Kiln, home">
        <img src="/favicon.svg" alt="" width="22" height="22" /> Kiln
      </a>
      <span className="muted small">Shared {what}</span>
    </header>
  );
}

/** The shared thing could not be read (not a link that does not work): why, and Try again. */
export function PublicLoadFailed({
  what,
  error,
  onRetry,
}: {
  what: string;
  error: unknown;
  onRetry: () => void;
}) {
  return (
    <main id="main" className="public-page__gone" role="alert">
      <h1>The {what} could not be loaded</h1>
      <p>{describeError(error).message}</p>
      <button type="button" onClick={onRetry}>
        Try again
      </button>
    </main>
  );
}

/** "This link does not work": unknown or revoked. `tight`: less space above, in a frame. */
export function PublicGone({
  what,
  embed,
  tight,
}: {
  what: string;
  embed: boolean;
  tight: boolean;
}) {
  return (
    <main id="main" className={`public-page__gone${tight ? ' public-page__gone--tight' : ''}`}>
      <h1>This link does not work</h1>
      <p>
        The {what} is no longer shared, or the address is not quite right. Ask whoever sent it for a
        new link.
      </p>
      <p>
        <a href="/" target={embed ? '_blank' : undefined} rel="noopener">
          Kiln
        </a>{' '}
        makes 3D models from photos and prompts.
      </p>
    </main>
  );
}

/** The page's last line: where it was made. */
export function KilnCredit({ className }: { className?: string }) {
  return (
    <p className={className ? `public-page__credit ${className}` : 'public-page__credit'}>
      Made with{' '}
      <a href="/" className="public-page__kiln">
        Kiln
      </a>
      , a browser studio that turns photos and prompts into 3D models.
    </p>
  );
}
