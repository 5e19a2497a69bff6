import { PromptVerdict } from '../../ui/prompt-verdict.tsx';
import { ViewsVerdict } from '../../ui/input-check.tsx';
import { useViewsCheck } from '../../api/input-check.ts';
import { Suspense, useCallback, useEffect, useRef, type RefObject } from 'react';
import { NotFoundError } from '../../../client/index.ts';
import { isTerminal, type LibraryEntry, type Task } from '../../../contract/index.ts';
import { navigate } from '../../lib/router.ts';
import { Link } from '../../ui/link.tsx';
import { QueryState } from '../../ui/query-state.tsx';
import { describeError, fieldMessage } from '../../lib/describe-error.ts';
import { isInputFailure, saveDraft, uploadNames } from '../../lib/draft.ts';
import { anotherModel, requestKind } from '../../lib/model-offers.ts';
import { useConnectedModels } from '../../api/providers.ts';
import { requestFor } from '../../lib/request-memory.ts';
import { useModels, useTask } from '../../api/tasks.ts';
import { useLibraryEntry, useUnhideTask, useKeepThumbnail } from '../../api/library.ts';
import { glbFileName } from '../../lib/file-name.ts';
import {
  archiveNote,
  costLabelOf,
  failureChargeWords,
  formatNumber,
  madeFromOf,
  nameOf,
  titleOf,
} from '../../lib/entry-format.ts';
import { LazyModelViewer, viewerHref } from '../viewer/index.ts';
import { CompareWith } from './compare-with.tsx';
import { TriedElsewhere, TryElsewhere, useTried } from './try-elsewhere.tsx';
import { useResend } from './use-resend.ts';
import { StageStepper } from './stage-stepper.tsx';
import { VendorStepper } from './vendor-stepper.tsx';
import { vendorProgress } from '../../lib/provider-progress.ts';
import { ShareButton, StillShared } from '../share/index.ts';
import { Renamable } from '../../ui/rename-form.tsx';
import { CollectionsButton } from '../collections/index.ts';
import './tasks.css';

/** What the task was made from (its title without a name), or its id before its entry loads. */
const subjectOf = (entry: LibraryEntry | undefined, task: Task) =>
  entry ? madeFromOf(entry) : task.id;

/** The model's title, what it was made from beside a name: "Blue teapot (“a red vase”)". */
function labelOf(entry: LibraryEntry | undefined, task: Task): string {
  if (!entry) return task.id;
  return nameOf(entry) ? `${titleOf(entry)} (${madeFromOf(entry)})` : titleOf(entry);
}

function FailurePanel({
  task,
  entry,
  heading,
}: {
  task: Task;
  entry: LibraryEntry | undefined;
  /** One level below the task's own heading (axe: heading-order). */
  heading: 'h2' | 'h3';
}) {
  const H = heading;
  const models = useModels();
  const resend = useResend();
  const price = models.data?.models.find((m) => m.id === entry?.model)?.credits ?? null;
  const body = requestFor(task.id, entry);
  // The input was at fault: back to the form with it loaded and the field marked. Otherwise the
  // same request again (a new task; the failed one cost nothing).
  const inputAtFault = isInputFailure(task.error);
  const edit = () => {
    if (!body || !task.error) return;
    const at = (task.error.param ?? 'form').replace(/\[\d+\]$/, '');
    const names = uploadNames(entry);
    saveDraft({
      body,
      error: { at, message: fieldMessage({ ...task.error, message: task.error.message }) },
      names,
    });
    navigate('/');
  };
  // The same request again, through the create its model needs (a provider's, with its key).
  const retry = () => {
    if (body) resend.send(body, body.model, (t) => navigate(`/tasks/${encodeURIComponent(t.id)}`));
  };
  return (
    <div className="failure" role="alert">
      <H>The generation failed</H>
      <p>{task.error ? fieldMessage(task.error) : 'The upstream did not say why.'}</p>
      <p className="refund">
        <span aria-hidden="true">↩</span> {failureChargeWords(entry, price)}
      </p>
      {body && inputAtFault ? (
        <button type="button" className="primary" onClick={edit}>
          Edit and try again
        </button>
      ) : body ? (
        <button type="button" className="primary" onClick={retry} disabled={resend.pending}>
          {resend.pending ? 'Starting…' : 'Try again'}
        </button>
      ) : (
        <p className="muted small">Start a new generation in the Studio to try again.</p>
      )}
      {resend.error && <p className="error">{resend.error}</p>}
    </div>
  );
}

function Result({ task, entry }: { task: Task; entry: LibraryEntry | undefined }) {
  const url = entry?.archived ? entry.model_url : null;
  // The first time an archived model is shown, its picture becomes the gallery's thumbnail.
  const { mutate: keepThumbnail } = useKeepThumbnail(task.id);
  const needsPicture = Boolean(url && entry && !entry.thumbnail_url);
  const onPicture = useCallback((picture: Blob) => keepThumbnail(picture), [keepThumbnail]);
  // "Same input, another model": the studio's form with this input and the next model for it.
  const models = useModels();
  const connected = useConnectedModels();
  const tried = useTried();
  const body = requestFor(task.id, entry);
  // The next model is one of every list: none is picked before they have all come.
  const listing = models.isPending || connected.some((c) => c.query.isPending);
  const sameInput = () => {
    if (!body) return;
    const names = uploadNames(entry);
    const next = anotherModel(body.model, requestKind(body), models.data?.models ?? [], connected);
    saveDraft({ body: { ...body, model: next as typeof body.model }, names });
    navigate('/');
  };
  const name = glbFileName(
    entry ?? {
      id: task.id,
      model: String(task.data?.model ?? 'model'),
      prompt: null,
      created: task.created ?? task.completed_at ?? 0,
    },
  );
  return (
    <div className="result">
      {url ? (
        <Suspense fallback={<div className="viewer-placeholder">Loading the viewer…</div>}>
          <LazyModelViewer
            url={url}
            label={`3D model of ${labelOf(entry, task)}`}
            fileName={name.replace(/\.glb$/, '')}
            turntable
            {...(needsPicture ? { onPicture } : {})}
          />
        </Suspense>
      ) : (
        <ArchiveWait entry={entry} />
      )}
      <div className="result-bar">
        {url && (
          <a className="button primary" href={url} download={name}>
            Download GLB
          </a>
        )}
        {url && (
          <Link className="button" href={viewerHref({ url, taskId: task.id })}>
            Open in viewer
          </Link>
        )}
        {url && (
          <Link className="button" href={`/tasks/${encodeURIComponent(task.id)}/optimise`}>
            Optimise…
          </Link>
        )}
        {entry && <ShareButton entry={entry} />}
        {entry && <CollectionsButton entry={entry} />}
        {body && (
          <button type="button" onClick={sameInput} disabled={listing}>
            Same input, another model
          </button>
        )}
        {entry && <CompareWith entry={entry} />}
        {entry && url && <TryElsewhere entry={entry} onSent={tried.add} />}
        <dl className="usage">
          <div>
            {/* A provider's task costs in its own unit (decision 0116). */}
            <dt>{entry?.cost ? 'Cost' : 'Credits used'}</dt>
            <dd data-testid="task-cost">
              {entry?.cost
                ? costLabelOf(entry)
                : orDash(task.usage?.credits_consumed ?? entry?.credits_consumed)}
            </dd>
          </div>
          <div>
            {/* The balance right after this task's charge, not now (the header says now). */}
            <dt>Remaining after this task</dt>
            <dd data-testid="credits-remaining">
              {orDash(task.usage?.credits_remaining ?? entry?.credits_remaining)}
            </dd>
          </div>
        </dl>
      </div>
      {entry && <TriedElsewhere entry={entry} tried={tried.tried} />}
    </div>
  );
}

/**
 * Where the model will be, while Kiln keeps its copy: saving it, or, when that waits (Kiln's
 * own file store cannot be reached, a retry) or was given up, why and what happens next
 * (decision 0095). The entry is read again meanwhile, so this goes by itself.
 */
function ArchiveWait({ entry }: { entry: LibraryEntry | undefined }) {
  const note = entry ? archiveNote(entry) : null;
  return (
    <div
      className={`viewer-placeholder${note ? ' archive-wait' : ''}`}
      role="status"
      data-testid="archive-wait"
      data-outage={entry?.archive?.outage}
    >
      <p>{note ?? 'Saving the model to your library…'}</p>
    </div>
  );
}

/** Everything about one task: live progress, then the model or the failure. */
export function TaskDetail({
  id,
  heading = 'h2',
  focusOnShow = false,
}: {
  id: string;
  heading?: 'h1' | 'h2';
  /** Move focus to the task's heading once it shows (a task just created). */
  focusOnShow?: boolean;
}) {
  const task = useTask(id);
  const entry = useLibraryEntry(id);
  const H = heading;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shown = task.data !== undefined;
  useEffect(() => {
    if (!focusOnShow || !shown) return;
    const heading = headingRef.current;
    heading?.focus({ preventScroll: true });
    // Below the form on a phone: brought into view (under the sticky header), once laid out.
    const frame = requestAnimationFrame(() =>
      heading?.scrollIntoView({ block: 'start', behavior: 'smooth' }),
    );
    return () => cancelAnimationFrame(frame);
  }, [focusOnShow, shown]);
  return (
    <QueryState
      query={task}
      loading="Loading the task…"
      failed="The task could not be loaded"
      title={<H>Task {id}</H>}
      describe={(error) =>
        error instanceof NotFoundError
          ? 'This task is not known for your API key. It may belong to another key.'
          : describeError(error).message
      }
    >
      {() => (
        <TaskShown
          id={id}
          task={task.data!}
          entry={entry.data}
          heading={heading}
          headingRef={headingRef}
        />
      )}
    </QueryState>
  );
}

/** A task that has loaded: its head, input, progress, then the model or the failure. */
function TaskShown({
  id,
  task: t,
  entry: e,
  heading,
  headingRef,
}: {
  id: string;
  task: Task;
  entry: LibraryEntry | undefined;
  heading: 'h1' | 'h2';
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const H = heading;
  const vendor = vendorProgress(t);
  return (
    <section
      className="task-detail card"
      aria-labelledby={`task-${id}`}
      data-testid="task-detail"
      data-task-id={id}
      data-status={t.status}
    >
      <div className="task-head">
        {/* One tree with or without the entry: the heading keeps its focus when the entry loads. */}
        <Renamable entry={e} className="task-title">
          <TaskHeading id={id} heading={H} headingRef={headingRef} task={t} entry={e} />
        </Renamable>
        <span
          className={`badge ${t.status === 'completed' ? 'ok' : t.status === 'failed' ? 'failed' : ''}`}
        >
          {t.status === 'completed'
            ? 'Completed'
            : t.status === 'failed'
              ? 'Failed'
              : 'In progress'}
        </span>
      </div>
      {e?.hidden && <HiddenNote entry={e} />}
      {e && <TaskInput entry={e} />}
      {t.status !== 'completed' && vendor && (
        <VendorStepper task={t} progress={vendor} label={`Progress of ${labelOf(e, t)}`} />
      )}
      {t.status !== 'completed' && !vendor && (
        <StageStepper
          task={t}
          label={`Progress of ${labelOf(e, t)}`}
          fromPrompt={Boolean(e?.prompt?.trim())}
          endedAt={e && isTerminal(t) ? e.updated_ms / 1000 : null}
        />
      )}
      {t.status === 'completed' && <Result task={t} entry={e} />}
      {t.status === 'failed' && (
        <FailurePanel task={t} entry={e} heading={heading === 'h1' ? 'h2' : 'h3'} />
      )}
    </section>
  );
}

/**
 * The task's heading: its model and what it was made from, or, once named, its name with the
 * model and input beside it, smaller.
 */
function TaskHeading({
  id,
  heading: H,
  headingRef,
  task,
  entry,
}: {
  id: string;
  heading: 'h1' | 'h2';
  headingRef: RefObject<HTMLHeadingElement | null>;
  task: Task;
  entry: LibraryEntry | undefined;
}) {
  const model = entry?.model ?? String(task.data?.model ?? 'Task');
  const name = entry && nameOf(entry) ? titleOf(entry) : null;
  return (
    <H id={`task-${id}`} ref={headingRef} tabIndex={-1}>
      {name ? (
        <>
          {name}
          <span className="name-subject">
            {' '}
            · {model} · {subjectOf(entry, task)}
          </span>
        </>
      ) : (
        <>
          {model} · {subjectOf(entry, task)}
        </>
      )}
    </H>
  );
}

/**
 * A task hidden from the gallery, opened by its address: say so, and offer to show it again;
 * shared, say that its public page is still up, with Stop sharing… (decision 0095).
 */
function HiddenNote({ entry }: { entry: LibraryEntry }) {
  const { id } = entry;
  const unhide = useUnhideTask();
  return (
    <div className="hidden-note" role="status">
      <p>This task is hidden from your gallery.</p>
      <button
        type="button"
        className="small"
        onClick={() => unhide.mutate(id)}
        disabled={unhide.isPending}
      >
        {unhide.isPending ? 'Unhiding…' : 'Unhide'}
      </button>
      {unhide.isError && <p className="error small">Could not unhide it: {unhide.error.message}</p>}
      <StillShared entries={[entry]} when="hidden" />
    </div>
  );
}

/** What the task was made from: its prompt, or its photos (Kiln uploads are shown). */
function TaskInput({ entry }: { entry: LibraryEntry }) {
  if (entry.prompt)
    return (
      <>
        <p className="task-input task-prompt">
          <span className="muted small">Prompt</span> {entry.prompt}
        </p>
        {entry.status !== 'failed' && (
          <PromptVerdict prompt={entry.prompt} made={entry.status === 'completed'} />
        )}
      </>
    );
  const photos = entry.images.filter((i) => i.upload);
  if (photos.length === 0) return null;
  return (
    <>
      <PhotoList photos={photos} />
      {entry.images.length >= 2 && entry.status === 'completed' && (
        <ViewsAfter urls={entry.images.map((i) => i.url)} />
      )}
    </>
  );
}

/** Said after the fact (mock mode): the views of a model made from several did not agree. */
function ViewsAfter({ urls }: { urls: string[] }) {
  const check = useViewsCheck(urls);
  return <ViewsVerdict check={check.data} made />;
}

function PhotoList({ photos }: { photos: LibraryEntry['images'] }) {
  return (
    <ul className="task-input task-photos" aria-label="Input photos">
      {photos.map((image, i) => (
        <li key={`${image.upload}-${i}`}>
          <img
            src={image.upload!}
            alt={`Input photo ${i + 1}${image.name ? `: ${image.name}` : ''}`}
            width={56}
            height={56}
            loading="lazy"
          />
        </li>
      ))}
    </ul>
  );
}

/** A figure in the page's number format, or a dash when it is not known. */
function orDash(n: number | null | undefined): string {
  return n == null ? '—' : formatNumber(n);
}
