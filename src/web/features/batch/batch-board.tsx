import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { isTerminal, type LibraryEntry, type Task } from '../../../contract/index.ts';
import { useClient, type BatchApi, taskQuery } from '../../api/tasks.ts';
import { useKeyScope, queryKeys } from '../../api/query-keys.ts';
import { useCredits } from '../../api/account.ts';
import { downloadModelsZip, entryQuery } from '../../api/library.ts';
import { formatNumber, formatTime, promptExcerpt } from '../../lib/entry-format.ts';
import { Link } from '../../ui/link.tsx';
import { LazyBackgroundPictures } from '../viewer/index.ts';
import type { BatchView } from './batch-state.ts';
import { itemStatus, type ItemStatus } from './batch-status.ts';
import type { Batch, BatchItem } from './batch-store.ts';
import { useZipDownload } from '../../lib/use-zip-download.ts';
import { batchController } from './use-batch.ts';

function Thumb({ item, task }: { item: BatchItem; task: Task | undefined }) {
  const scope = useKeyScope();
  const completed = task?.status === 'completed' && item.taskId !== null;
  const entry = useQuery({
    ...entryQuery(scope, item.taskId ?? ''),
    enabled: completed,
  });
  const result = completed ? entry.data?.thumbnail_url : null;
  const input = item.upload?.preview ?? batchController.localPreview(item.id);
  if (result)
    return (
      <div className="batch-thumb batch-thumb-model" data-testid="batch-thumb" data-shows="model">
        <img src={result} alt={`3D model made from ${item.name}`} />
        {input && <img className="batch-thumb-input" src={input} alt="" />}
      </div>
    );
  // The photo is the small picture in the corner from the start, where it stays once the model's
  // picture is drawn (issue 32): never the raw photo across the card, then shrunk.
  if (input)
    return (
      <div className="batch-thumb batch-thumb-model" data-testid="batch-thumb" data-shows="photo">
        <span className="batch-thumb-wait muted small">
          {completed ? 'Drawing the model’s picture…' : 'The model’s picture goes here'}
        </span>
        <img className="batch-thumb-input" src={input} alt={`Photo: ${item.name}`} />
      </div>
    );
  // A prompt is the card's title already: until the model's picture is drawn, a mark.
  return (
    <div className="batch-thumb batch-thumb-prompt" aria-hidden="true">
      <span>Aa</span>
    </div>
  );
}

function ItemCard({
  item,
  task,
  upload,
  api,
  retryBlocked,
}: {
  item: BatchItem;
  task: Task | undefined;
  upload: number | undefined;
  api: BatchApi;
  retryBlocked: string | null;
}) {
  const status = itemStatus(item, task, upload);
  const title = item.prompt !== null ? promptExcerpt(item.prompt, 10, 70) : item.name;
  const failed = status.tone === 'failed';
  return (
    <li
      className={`card batch-item tone-${status.tone}`}
      data-testid="batch-item"
      data-state={item.state}
      data-status={task?.status ?? ''}
      data-task-id={item.taskId ?? ''}
      aria-label={`${title}: ${status.line}`}
    >
      <Thumb item={item} task={task} />
      <div className="batch-item-body">
        <h3 className="batch-item-title" title={item.prompt ?? item.name}>
          {title}
        </h3>
        <p
          className={`batch-item-status ${failed ? 'error' : status.tone === 'ok' ? 'ok' : 'muted'} small`}
        >
          {status.line}
        </p>
        {status.progress !== null && status.tone === 'running' && (
          <div
            className="progress"
            role="progressbar"
            aria-label={`Progress of ${title}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={status.progress}
          >
            <span style={{ width: `${status.progress}%` }} />
          </div>
        )}
        <div className="batch-item-actions">
          {failed && (
            <button
              type="button"
              className="small"
              onClick={() => void batchController.retry(item.id, api)}
              disabled={retryBlocked !== null}
              title={retryBlocked ?? undefined}
              aria-label={`Retry ${title}`}
            >
              Retry
            </button>
          )}
          {item.taskId && (
            <Link
              className="button small"
              href={`/tasks/${encodeURIComponent(item.taskId)}`}
              aria-label={`Open ${title}`}
            >
              Open
            </Link>
          )}
          {item.earlierTaskIds.length > 0 && (
            <span className="muted small">try {item.earlierTaskIds.length + 1}</span>
          )}
        </div>
      </div>
    </li>
  );
}

/** Counts of the board's items by where they stand. */
function tally(statuses: ItemStatus[]) {
  return {
    ok: statuses.filter((s) => s.tone === 'ok').length,
    failed: statuses.filter((s) => s.tone === 'failed').length,
    running: statuses.filter((s) => s.tone === 'running' || s.tone === 'waiting').length,
  };
}

function useSecondsUntil(until: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  return until === null ? null : Math.max(0, Math.ceil((until - now) / 1000));
}

/**
 * Every item's task, polled as the task page polls it (a finished one is not polled again), with
 * each item's status, the finished tasks' ids and their entries (their pictures are drawn on the
 * board when no browser has drawn them). A task that ends moves the balance and the library:
 * both are read again, as the task page does.
 */
function useBatchTasks(view: BatchView & { batch: Batch }) {
  const { batch } = view;
  const client = useClient();
  const scope = useKeyScope();
  const queryClient = useQueryClient();
  const tasks = useQueries({
    queries: batch.items.map((item) => ({
      ...taskQuery(client, scope, item.taskId ?? ''),
      enabled: item.taskId !== null,
    })),
  });
  const taskOf = (i: number) => (batch.items[i]?.taskId ? tasks[i]?.data : undefined);
  const statuses = batch.items.map((item, i) => itemStatus(item, taskOf(i), view.uploads[item.id]));
  const done = batch.items.flatMap((item, i) =>
    taskOf(i)?.status === 'completed' && item.taskId ? [item.taskId] : [],
  );
  const ended = tasks.filter((t) => t.data && isTerminal(t.data)).length;
  const finished = useQueries({ queries: done.map((id) => entryQuery(scope, id)) })
    .map((q) => q.data)
    .filter((e): e is LibraryEntry => e !== undefined);

  const seenEnded = useRef(ended);
  useEffect(() => {
    if (ended !== seenEnded.current) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.library(scope) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.credits(scope) });
    }
    seenEnded.current = ended;
  }, [ended, queryClient, scope]);
  return { taskOf, statuses, done, finished };
}

/** The board's heading: what the batch is, "Download all" (the finished models) and New batch. */
function BoardHead({
  titleId,
  batch,
  done,
  zipBusy,
  onDownloadAll,
  newBlocked,
  onNew,
}: {
  titleId: string;
  batch: Batch;
  /** How many models are finished. */
  done: number;
  zipBusy: boolean;
  onDownloadAll: () => void;
  /** Items are still being sent: a new batch waits. */
  newBlocked: boolean;
  onNew: () => void;
}) {
  return (
    <div className="batch-board-head">
      <div>
        <h2 id={titleId}>
          Batch of {batch.items.length} {batch.kind === 'photos' ? 'photos' : 'prompts'}
        </h2>
        <p className="muted small">
          {batch.model}
          {batch.creditsPerItem !== null &&
            ` · ${batch.creditsPerItem} credits each · ${batch.creditsPerItem * batch.items.length} in all`}
          {` · started ${formatTime(batch.createdMs)}`}
        </p>
      </div>
      <div className="batch-board-actions">
        <button
          type="button"
          className="primary"
          onClick={onDownloadAll}
          disabled={done === 0 || zipBusy}
        >
          {zipBusy ? 'Preparing the zip…' : `Download all${done > 0 ? ` (${done})` : ''}`}
        </button>
        <button type="button" onClick={onNew} disabled={newBlocked}>
          New batch
        </button>
      </div>
    </div>
  );
}

/** The board's one-line summary of its items, and what else it has to say. */
function BoardStatus({
  view,
  statuses,
  zipError,
}: {
  view: BatchView & { batch: Batch };
  statuses: ItemStatus[];
  zipError: string | null;
}) {
  const counts = tally(statuses);
  const pausedFor = useSecondsUntil(view.pausedUntil);
  const summary = [
    `${counts.ok} of ${view.batch.items.length} completed`,
    counts.running > 0 ? `${counts.running} under way` : null,
    counts.failed > 0 ? `${counts.failed} failed` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <>
      <p className="batch-summary" role="status" data-testid="batch-summary">
        {summary}
        {view.sending > 0 && ` · sending ${view.sending}`}
      </p>
      {pausedFor !== null && pausedFor > 0 && (
        <p className="batch-note" role="status">
          The API asked Kiln to slow down: sending again in {pausedFor} s.
        </p>
      )}
      {!view.kept && (
        <p className="batch-note">
          This browser would not keep the batch: it goes on, but a reload now would lose the board
          (its tasks stay in the gallery).
        </p>
      )}
      {zipError !== null && (
        <p className="error" role="alert">
          {zipError}
        </p>
      )}
    </>
  );
}

/** The batch's items, each with its stage and result; Retry for failures; one zip of the models. */
export function BatchBoard({
  view,
  api,
  onNew,
}: {
  view: BatchView & { batch: Batch };
  api: BatchApi;
  onNew: () => void;
}) {
  const { batch } = view;
  const ids = useId();
  const balance = useCredits().data?.balance ?? null;
  const { taskOf, statuses, done, finished } = useBatchTasks(view);
  const retryBlocked =
    batch.creditsPerItem !== null && balance !== null && balance < batch.creditsPerItem
      ? `A task costs ${formatNumber(batch.creditsPerItem)} credits; your balance is ${formatNumber(balance)}.`
      : null;
  const { zip, download } = useZipDownload((options) => downloadModelsZip(done, options));

  return (
    <section className="batch-board" aria-labelledby={`${ids}-title`}>
      <BoardHead
        titleId={`${ids}-title`}
        batch={batch}
        done={done.length}
        zipBusy={zip.state === 'busy'}
        onDownloadAll={() => void download()}
        newBlocked={view.sending > 0}
        onNew={onNew}
      />
      <Suspense fallback={null}>
        <LazyBackgroundPictures entries={finished} />
      </Suspense>
      <BoardStatus
        view={view}
        statuses={statuses}
        zipError={zip.state === 'failed' ? zip.message : null}
      />
      <ul className="batch-grid" aria-label="Items of this batch">
        {batch.items.map((item, i) => (
          <ItemCard
            key={item.id}
            item={item}
            task={taskOf(i)}
            upload={view.uploads[item.id]}
            api={api}
            retryBlocked={retryBlocked}
          />
        ))}
      </ul>
    </section>
  );
}
