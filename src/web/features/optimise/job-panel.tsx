import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { NotFoundError } from '../../../client/index.ts';
import { formatBytes } from '../../../formats/index.ts';
import { ERROR_CODES, type OptimiseJob, type OptimiseResult } from '../../../contract/index.ts';
import { useOptimiseJob } from '../../api/optimise.ts';
import { describeError } from '../../lib/describe-error.ts';
import { Link } from '../../ui/link.tsx';
import { QueryState } from '../../ui/query-state.tsx';
import { CameraLink, LazyModelViewer, viewerHref } from '../viewer/index.ts';
import {
  describeExtensions,
  describePlan,
  describeSize,
  describeTextures,
  formatChange,
  formatCount,
  presetName,
} from './format.ts';

/** A job: its progress while it runs, why it failed, or the result to compare and download. */
export function JobPanel({
  jobId,
  original,
  subject,
  fileName,
  onRetry,
  retrying = false,
}: {
  jobId: string;
  /** The original model's URL (the left of the comparison). */
  original: string;
  /** "chair.png", "“a red mug”": what the model is of. */
  subject: string;
  /** The download's name. */
  fileName: (job: OptimiseJob) => string;
  /** Runs the failed job's plan again (what the job asked, whatever the form says now). */
  onRetry: (job: OptimiseJob) => void;
  /** A new job is being asked for. */
  retrying?: boolean;
}) {
  const job = useOptimiseJob(jobId);
  return (
    <QueryState
      query={job}
      loading="Loading the optimise job…"
      failed="The optimise job could not be loaded"
      className="opt-job"
      describe={(error) =>
        error instanceof NotFoundError
          ? 'This optimise job is not known any more (Kiln keeps jobs for an hour after they finish). Press Optimise to run it again.'
          : describeError(error).message
      }
    >
      {() => {
        const j = job.data!;
        if (j.status === 'queued' || j.status === 'running') return <Progress job={j} />;
        if (j.status === 'failed') {
          // The server running it stopped (a restart, a crash): nothing to change, only to redo.
          const interrupted = j.error?.code === ERROR_CODES.optimiseInterrupted;
          return (
            <div className="opt-job card" role="alert" data-testid="optimise-failed">
              <h2>{interrupted ? 'Optimising was interrupted' : 'Optimising failed'}</h2>
              <p>{j.error?.message ?? 'Kiln did not say why.'}</p>
              <button type="button" onClick={() => onRetry(j)} disabled={retrying}>
                {interrupted ? 'Run it again' : 'Try again'}
              </button>
            </div>
          );
        }
        return (
          <Result
            job={j}
            result={j.result!}
            original={original}
            subject={subject}
            fileName={fileName(j)}
          />
        );
      }}
    </QueryState>
  );
}

function Progress({ job }: { job: OptimiseJob }) {
  return (
    <div className="opt-job card" data-testid="optimise-progress">
      <div className="opt-progress-head">
        <strong aria-live="polite">{job.stage}</strong>
        <span className="muted small">{job.progress}%</span>
      </div>
      <div
        className="progress"
        role="progressbar"
        aria-label="Optimising"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={job.progress}
        aria-valuetext={`${job.progress}% — ${job.stage}`}
      >
        <span style={{ width: `${Math.max(2, job.progress)}%` }} />
      </div>
      <p className="muted small">
        Kiln optimises on its server, one model at a time; you may leave this page and come back
        with its address.
      </p>
    </div>
  );
}

function Row({
  label,
  before,
  after,
  change,
}: {
  label: string;
  before: ReactNode;
  after: ReactNode;
  change?: string;
}) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>{before}</td>
      <td>
        {after}
        {change && change !== 'same' && (
          <span className={`opt-change${change.startsWith('−') ? ' opt-change--less' : ''}`}>
            {' '}
            ({change})
          </span>
        )}
      </td>
    </tr>
  );
}

/** "847 KB", and under it the exact count ("867,440 bytes"). */
function Bytes({ n }: { n: number }) {
  return (
    <>
      {formatBytes(n)} <span className="opt-bytes">{formatCount(n)} bytes</span>
    </>
  );
}

/** A finished job's result, with the original's address and what the model is called. */
interface ResultProps {
  job: OptimiseJob;
  result: OptimiseResult;
  original: string;
  subject: string;
  fileName: string;
}

/** The facts of the original and the optimised file side by side, and the optimiser's notes. */
function BeforeAfter({ job, result }: { job: OptimiseJob; result: OptimiseResult }) {
  const { before, after } = result;
  const stl = result.format === 'stl';
  return (
    <div className="card">
      <h2 id="opt-result-title">Before and after</h2>
      <p className="muted small">{describePlan(job.plan)}</p>
      <div className="opt-table-wrap">
        <table className="opt-facts">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Fact</span>
              </th>
              <th scope="col">Original (GLB)</th>
              <th scope="col">Optimised ({result.format.toUpperCase()})</th>
            </tr>
          </thead>
          <tbody>
            <Row
              label="Triangles"
              before={formatCount(before.triangles)}
              after={formatCount(after.triangles)}
              change={formatChange(before.triangles, after.triangles)}
            />
            <Row
              label="Vertices"
              before={formatCount(before.vertices)}
              after={formatCount(after.vertices)}
              change={formatChange(before.vertices, after.vertices)}
            />
            <Row
              label="File size"
              before={<Bytes n={before.bytes} />}
              after={<Bytes n={after.bytes} />}
              change={formatChange(before.bytes, after.bytes)}
            />
            {!stl && (
              <Row
                label="Textures"
                before={describeTextures(before.textures)}
                after={describeTextures(after.textures)}
              />
            )}
            {!stl && (
              <Row
                label="Needs"
                before={describeExtensions(before.extensions)}
                after={describeExtensions(after.extensions)}
              />
            )}
            <Row
              label="Size (w × d × h)"
              before={describeSize(before.size_m, 'm')}
              after={describeSize(after.size_m, stl ? 'mm' : 'm')}
            />
            {stl && (
              <Row
                label="Watertight"
                before="—"
                after={result.watertight ? 'Yes: every edge joins two triangles' : 'No'}
              />
            )}
          </tbody>
        </table>
      </div>
      {result.notes.length > 0 && (
        <ul className="opt-notes">
          {result.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The original and the optimised model in two viewers whose cameras are linked (both frame their
 * model alike, so one pose shows both the same way: turning one turns the other, to compare the
 * same spot), the download, and both opened in the viewer.
 */
function SideBySide({ job, result, original, subject, fileName }: ResultProps) {
  const { before, after } = result;
  const stl = result.format === 'stl';
  const [link] = useState(() => new CameraLink());
  const [linked, setLinked] = useState(true);
  useEffect(() => {
    link.setEnabled(linked);
  }, [link, linked]);
  const compare = viewerHref(
    { url: original, taskId: job.task_id },
    { url: result.preview_url, taskId: job.task_id, optimised: presetName(job.plan) },
  );
  return (
    <div className="card">
      <div className="opt-compare__head">
        <h2>Side by side</h2>
        <label>
          <input type="checkbox" checked={linked} onChange={(e) => setLinked(e.target.checked)} />{' '}
          Link cameras
        </label>
      </div>
      {stl && (
        <p className="muted small">
          The right is the printed mesh (a GLB of the STL&rsquo;s triangles, shown in metres).
        </p>
      )}
      <div className="opt-compare">
        <figure>
          <figcaption>Original · {formatBytes(before.bytes)}</figcaption>
          <Suspense fallback={<div className="viewer-placeholder">Loading the viewer…</div>}>
            <LazyModelViewer
              url={original}
              label={`3D model of ${subject}, original`}
              cameraLink={link}
            />
          </Suspense>
        </figure>
        <figure>
          <figcaption>
            Optimised · {formatBytes(after.bytes)} · {formatCount(after.triangles)} triangles
          </figcaption>
          <Suspense fallback={<div className="viewer-placeholder">Loading the viewer…</div>}>
            <LazyModelViewer
              url={result.preview_url}
              label={`3D model of ${subject}, optimised for ${job.plan.preset}`}
              fileName={fileName.replace(/\.(glb|stl)$/, '')}
              cameraLink={link}
            />
          </Suspense>
        </figure>
      </div>
      <div className="opt-download">
        <a className="button primary" href={result.url} download={fileName}>
          Download {result.format.toUpperCase()} · {formatBytes(result.bytes)}
        </a>
        <Link className="button" href={compare}>
          Open both in the viewer
        </Link>
        <span className="muted small">{fileName}</span>
      </div>
    </div>
  );
}

function Result({ job, result, original, subject, fileName }: ResultProps) {
  return (
    <section
      className="opt-result"
      aria-labelledby="opt-result-title"
      data-testid="optimise-result"
    >
      <BeforeAfter job={job} result={result} />
      <SideBySide
        job={job}
        result={result}
        original={original}
        subject={subject}
        fileName={fileName}
      />
    </section>
  );
}
