import {
  isTerminal,
  progressOf,
  shownStage,
  stagesFor,
  type Task,
} from '../../../contract/index.ts';
import { Elapsed } from './elapsed.tsx';
import { ProgressBar } from './progress-bar.tsx';

/**
 * initializing → downloading images → generating 3D mesh → processing mesh → uploading result →
 * completed; a prompt's task downloads no images, and its list says so (no such step).
 */
export function StageStepper({
  task,
  label,
  fromPrompt,
  endedAt = null,
}: {
  task: Task;
  label: string;
  /** The task was made from a prompt: no "Downloading images" step. */
  fromPrompt: boolean;
  /** When the task ended (unix seconds) if the task does not say (a failed task has no completed_at). */
  endedAt?: number | null;
}) {
  const progress = progressOf(task);
  const current = shownStage(task.progress_stage, progress, fromPrompt);
  const failed = task.status === 'failed';
  const stages = stagesFor(fromPrompt);
  const currentIndex = stages.indexOf(current);
  return (
    <div className="stepper">
      <div className="stepper-head">
        <strong>{failed ? `Failed while ${lowerFirst(current.label)}` : current.label}</strong>
        <span className="muted small">
          {progress}%
          <Elapsed
            since={task.created ?? null}
            until={task.completed_at ?? (isTerminal(task) ? endedAt : null)}
            running={!isTerminal(task)}
            prefix=" · "
          />
        </span>
      </div>
      <ProgressBar label={label} percent={progress} words={current.label} />
      <ol className="steps" data-testid="stages">
        {stages.map((s, i) => {
          const state =
            i < currentIndex || task.status === 'completed'
              ? 'done'
              : i === currentIndex
                ? failed
                  ? 'failed'
                  : 'current'
                : 'todo';
          return (
            <li
              key={s.key}
              className={`step ${state}`}
              aria-current={state === 'current' ? 'step' : undefined}
            >
              <span className="dot" aria-hidden="true">
                {state === 'done' ? '✓' : state === 'failed' ? '✕' : ''}
              </span>
              <span className="step-label">{s.label}</span>
              <span className="visually-hidden">
                {state === 'done'
                  ? ' (done)'
                  : state === 'current'
                    ? ' (in progress)'
                    : state === 'failed'
                      ? ' (failed)'
                      : ''}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** "Generating 3D mesh" → "generating 3D mesh" (acronyms keep their capitals). */
function lowerFirst(label: string): string {
  return label.charAt(0).toLowerCase() + label.slice(1);
}
