import { useRef, useState } from 'react';
import { progressOf, type LibraryEntry, type Task } from '../../../contract/index.ts';
import { useConnectedModels } from '../../api/providers.ts';
import { useModels, useTask } from '../../api/tasks.ts';
import { useLibraryEntry } from '../../api/library.ts';
import { costLabelOf, madeByWords } from '../../lib/entry-format.ts';
import { inputKindOf, offersFor, type ModelOffer } from '../../lib/model-offers.ts';
import { vendorProgress } from '../../lib/provider-progress.ts';
import { requestFor } from '../../lib/request-memory.ts';
import { Link } from '../../ui/link.tsx';
import { viewerHref } from '../viewer/index.ts';
import { useResend } from './use-resend.ts';
import './compare-with.css';

const INPUT_WORDS = { image: 'photo', multiview: 'views', text: 'prompt' } as const;

/**
 * "Try on another provider…" on a result (decision 0116): the models of the other connected
 * providers (and the spec's) that take this input, each at its price in its own unit, said before
 * anything is sent; choosing one sends the same input there. `onSent` is told the new task.
 */
export function TryElsewhere({
  entry,
  onSent,
}: {
  entry: LibraryEntry;
  onSent: (task: Task, offer: ModelOffer) => void;
}) {
  const spec = useModels();
  const connected = useConnectedModels();
  const resend = useResend();
  const menu = useRef<HTMLDetailsElement>(null);
  const body = requestFor(entry.id, entry);
  const kind = inputKindOf(entry);
  const offers = offersFor(entry, spec.data?.models ?? [], connected);
  if (!body || !kind || offers.length === 0) return null;
  const choose = (offer: ModelOffer) =>
    resend.send(body, offer.id, (task) => {
      if (menu.current) menu.current.open = false;
      onSent(task, offer);
    });
  return (
    <details className="compare-with try-elsewhere" ref={menu}>
      <summary className="button">Try on another provider…</summary>
      <div className="compare-with__menu card" data-testid="try-elsewhere">
        <p className="muted small">
          The same {INPUT_WORDS[kind]}, sent to another model at its price. Nothing is sent until
          you choose.
        </p>
        <ul>
          {offers.map((o) => (
            <li key={o.id}>
              <button
                type="button"
                className="compare-with__offer"
                data-model={o.id}
                onClick={() => choose(o)}
                disabled={resend.pending}
              >
                <strong>{o.label}</strong> <span className="muted small">{o.price}</span>
              </button>
            </li>
          ))}
        </ul>
        {resend.pending && <p className="muted small">Sending…</p>}
        {resend.error && (
          <p className="error small" role="alert">
            {resend.error}
          </p>
        )}
      </div>
    </details>
  );
}

/** The tasks a result's input was sent to from here, each followed to its end. */
export function useTried() {
  const [tried, setTried] = useState<{ id: string; label: string }[]>([]);
  const add = (task: Task, offer: ModelOffer) =>
    setTried((all) => [
      { id: task.id, label: offer.label },
      ...all.filter((t) => t.id !== task.id),
    ]);
  return { tried, add };
}

/**
 * The same input on other models, as each runs: its progress as its provider states it, then,
 * once both are done and kept, one click to the two side by side in the viewer.
 */
export function TriedElsewhere({
  entry,
  tried,
}: {
  entry: LibraryEntry;
  tried: readonly { id: string; label: string }[];
}) {
  if (tried.length === 0) return null;
  return (
    <section className="tried-elsewhere" aria-label="The same input on other models">
      <h3 className="small">The same input on other models</h3>
      <ul>
        {tried.map((t) => (
          <TriedRow key={t.id} id={t.id} label={t.label} entry={entry} />
        ))}
      </ul>
    </section>
  );
}

function TriedRow({ id, label, entry }: { id: string; label: string; entry: LibraryEntry }) {
  const task = useTask(id);
  const other = useLibraryEntry(id);
  const t = task.data;
  const kept = other.data?.archived && other.data.model_url ? other.data : null;
  const mine = entry.archived ? entry.model_url : null;
  const price = other.data ? costLabelOf(other.data) : null;
  return (
    <li className="tried-elsewhere__row" data-testid="tried-task" data-task-id={id}>
      <span>
        <strong>{other.data ? madeByWords(other.data) : label}</strong>
        {price && <span className="muted small"> · {price}</span>}
      </span>
      <span className="small" data-testid="tried-status">
        {statusWords(t, Boolean(kept))}
      </span>
      <span className="tried-elsewhere__actions">
        <Link className="button small" href={`/tasks/${encodeURIComponent(id)}`}>
          Its task
        </Link>
        {kept && mine && (
          <Link
            className="button primary small"
            href={viewerHref({ url: mine, taskId: entry.id }, { url: kept.model_url!, taskId: id })}
          >
            Open both side by side
          </Link>
        )}
      </span>
    </li>
  );
}

/** Where a tried task is: its provider's own words and figure, never an invented percentage. */
function statusWords(t: Task | undefined, kept: boolean): string {
  if (!t) return 'Starting…';
  if (t.status === 'failed') return `Failed: ${t.error?.message ?? 'the provider did not say why'}`;
  if (t.status === 'completed') return kept ? 'Done' : 'Done · saving the model…';
  const vendor = vendorProgress(t);
  if (vendor)
    return vendor.percent !== null ? `${vendor.words} · ${vendor.percent}%` : vendor.words;
  return `In progress · ${progressOf(t)}%`;
}
