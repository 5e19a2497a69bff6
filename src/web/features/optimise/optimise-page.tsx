// `/tasks/{id}/optimise`: a completed task's model made for a target (web / AR, a game engine, a
// 3D printer, or custom options), on Kiln's server; its progress; then before / after facts, the
// two models side by side, and the download. Lazy-loaded (app.tsx).
import { useEffect, useState } from 'react';
import { NotFoundError } from '../../../client/index.ts';
import type { LibraryEntry, OptimiseJob } from '../../../contract/index.ts';
import { useLibraryEntry } from '../../api/library.ts';
import { useStartOptimise } from '../../api/optimise.ts';
import { describeError } from '../../lib/describe-error.ts';
import { titleOf } from '../../lib/entry-format.ts';
import { glbFileName } from '../../lib/file-name.ts';
import { Link } from '../../ui/link.tsx';
import { QueryState } from '../../ui/query-state.tsx';
import { checkForm, formOfPlan, INITIAL_FORM, type OptimiseForm } from './form-state.ts';
import { resultFileName } from './format.ts';
import { JobPanel } from './job-panel.tsx';
import { OptionsForm, type FieldError } from './options-form.tsx';
import './optimise.css';

/** The job the address names (`?job=opt_…`): a reload comes back to it. */
function jobInAddress(): string | null {
  return new URLSearchParams(location.search).get('job');
}

export default function OptimisePage({ id }: { id: string }) {
  const entry = useLibraryEntry(id);
  useEffect(() => {
    document.title = 'Optimise · Kiln';
  }, []);
  return (
    <main className="page optimise-page">
      <p>
        <Link href={`/tasks/${encodeURIComponent(id)}`}>← Back to the task</Link>
      </p>
      <QueryState
        query={entry}
        loading="Loading the model…"
        failed="The model could not be loaded"
        title={<h1>Optimise</h1>}
        describe={(error) =>
          error instanceof NotFoundError
            ? 'This task is not in your library. It may belong to another key.'
            : describeError(error).message
        }
      >
        {() => <Optimise entry={entry.data!} />}
      </QueryState>
    </main>
  );
}

function Optimise({ entry }: { entry: LibraryEntry }) {
  const [form, setForm] = useState<OptimiseForm>(INITIAL_FORM);
  const [error, setError] = useState<FieldError | null>(null);
  const [jobId, setJobId] = useState<string | null>(jobInAddress);
  const start = useStartOptimise(entry.id);
  // The model's name, else what it was made from (the one title rule, modelTitle).
  const subject = titleOf(entry);

  if (!entry.archived || !entry.model_url)
    return (
      <div className="card">
        <h1>Optimise · {subject}</h1>
        <p role="status">
          {entry.status === 'completed'
            ? 'The model is still being saved to your library. Try again in a moment.'
            : 'Only a completed task’s model can be optimised.'}
        </p>
      </div>
    );
  const original = entry.model_url;

  const submit = (asked: OptimiseForm = form) => {
    const checked = checkForm(asked);
    if (!checked.ok) {
      setError({ field: checked.field, message: checked.message });
      return;
    }
    setError(null);
    start.mutate(checked.request, {
      onSuccess: ({ job_id }) => {
        setJobId(job_id);
        history.replaceState(
          history.state,
          '',
          `${location.pathname}?job=${encodeURIComponent(job_id)}`,
        );
      },
      onError: (err) => {
        const shown = describeError(err);
        setError({ field: shown.at === 'key' ? 'form' : shown.at, message: shown.message });
      },
    });
  };
  const fileName = (job: OptimiseJob) => resultFileName(glbFileName(entry), job.plan);

  return (
    <>
      <header className="opt-head">
        <h1>Optimise · {subject}</h1>
        <p className="muted">
          A lighter copy for the web, a game engine or a 3D printer, made on Kiln&rsquo;s server.
          The original stays in your library as it is.
        </p>
      </header>
      <div className="opt-layout">
        <OptionsForm
          form={form}
          onChange={(f) => {
            setForm(f);
            if (error) setError(null);
          }}
          onSubmit={() => submit()}
          error={error}
          busy={start.isPending}
        />
        <div className="opt-output">
          {jobId ? (
            <JobPanel
              key={jobId}
              jobId={jobId}
              original={original}
              subject={subject}
              fileName={fileName}
              onRetry={(failed) => {
                // The failed job's own options (the form may be fresh after a reload), shown too.
                const again = formOfPlan(failed.plan);
                setForm(again);
                submit(again);
              }}
              retrying={start.isPending}
            />
          ) : (
            <div className="opt-job card opt-empty">
              <p className="muted">
                Pick a target and press <strong>Optimise</strong>: the before and after, side by
                side, show here before you download.
              </p>
            </div>
          )}
        </div>
      </div>
    </>
  );
}
