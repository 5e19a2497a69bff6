import type { LibraryEntry } from '../../../contract/index.ts';
import { useSameInput } from '../../api/library.ts';
import { describeEntry } from '../../lib/entry-format.ts';
import { Link } from '../../ui/link.tsx';
import { addressPath, viewerHref } from '../viewer/index.ts';
import './compare-with.css';

/** The viewer comparing two entries' models side by side (linked cameras), each named. */
function compareHref(
  a: { url: string; taskId: string },
  b: { url: string; taskId: string },
): string {
  return viewerHref(a, b);
}

/**
 * "Compare with…" on a result: this key's other finished generations of the same input (the
 * same prompt, or the same photos), each opening the viewer's compare view beside this one.
 * Nothing when there is none.
 */
export function CompareWith({ entry }: { entry: LibraryEntry }) {
  const mine = entry.archived ? entry.model_url : null;
  const others = useSameInput(entry.id, mine !== null);
  // One choice per model file: another entry whose file is this one's (the same model made
  // twice alike) or another's already listed says nothing new.
  const seen = new Set(mine ? [addressPath(mine)] : []);
  const choices = (others.data ?? []).filter(
    (e): e is LibraryEntry & { model_url: string } =>
      e.archived &&
      e.model_url !== null &&
      !seen.has(addressPath(e.model_url)) &&
      Boolean(seen.add(addressPath(e.model_url))),
  );
  if (!mine || choices.length === 0) return null;
  return (
    <details className="compare-with">
      <summary className="button">Compare with…</summary>
      <div className="compare-with__menu card">
        <p className="muted small">The same input, made again:</p>
        <ul>
          {choices.map((other) => (
            <li key={other.id}>
              <Link
                href={compareHref(
                  { url: mine, taskId: entry.id },
                  { url: other.model_url, taskId: other.id },
                )}
                aria-label={`Compare with ${describeEntry(other)}`}
              >
                <strong>{other.model}</strong>{' '}
                <span className="muted small">{describeEntry(other).split(' · ').at(-1)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </details>
  );
}
