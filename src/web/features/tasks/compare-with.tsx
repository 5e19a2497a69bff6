import type { LibraryEntry } from '../../../contract/index.ts';
import { useSameInput } from '../../api/same-input-query.ts';
import { describeEntry } from '../../lib/entry-format.ts';
import { Link } from '../../ui/link.tsx';
import './compare-with.css';

/** The viewer comparing two models side by side (`/viewer?a=…&b=…`, linked cameras). */
export function compareHref(a: string, b: string): string {
  return `/viewer?${new URLSearchParams({ a, b }).toString()}`;
}

/**
 * "Compare with…" on a result: this key's other finished generations of the same input (the
 * same prompt, or the same photos), each opening the viewer's compare view beside this one.
 * Nothing when there is none.
 */
export function CompareWith({ entry }: { entry: LibraryEntry }) {
  const mine = entry.archived ? entry.model_url : null;
  const others = useSameInput(entry.id, mine !== null);
  const choices = (others.data ?? []).filter(
    (e): e is LibraryEntry & { model_url: string } => e.archived && e.model_url !== null,
  );
  if (!mine || choices.length === 0) return null;
  return (
    <details className="compare-with">
      <summary className="button">Compare with…</summary>
      <div className="compare-with__menu card">
        <p className="muted small">The same input, made with another model:</p>
        <ul>
          {choices.map((other) => (
            <li key={other.id}>
              <Link
                href={compareHref(mine, other.model_url)}
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
