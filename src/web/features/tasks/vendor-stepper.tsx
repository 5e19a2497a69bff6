import { isTerminal, type Task } from '../../../contract/index.ts';
import type { VendorProgress } from '../../lib/provider-progress.ts';
import { Elapsed } from './elapsed.tsx';
import { ProgressBar } from './progress-bar.tsx';

/**
 * A vendor's task under way, as the vendor states it (issue 34): Meshy's steps with its
 * percentage; fal's queue position and the time elapsed, and no percentage (fal states none).
 */
export function VendorStepper({
  task,
  progress,
  label,
}: {
  task: Task;
  progress: VendorProgress;
  label: string;
}) {
  const { words, percent } = progress;
  return (
    <div className="stepper" data-testid="vendor-stage">
      <div className="stepper-head">
        <strong>{task.status === 'failed' ? `Failed at: ${words}` : words}</strong>
        <span className="muted small">
          {percent !== null ? `${percent}%` : 'no percentage from the provider'}
          <Elapsed
            since={task.created ?? null}
            until={task.completed_at ?? null}
            running={!isTerminal(task)}
            prefix=" · "
          />
        </span>
      </div>
      <ProgressBar label={label} percent={percent} words={words} />
    </div>
  );
}
