import { useEffect, useRef, useState } from 'react';
import { useBatchApi } from '../../api/tasks.ts';
import { describeError } from '../../lib/describe-error.ts';
import { BatchBoard } from './batch-board.tsx';
import type { NewBatch } from './new-batch.ts';
import { BatchPlanner } from './batch-planner.tsx';
import { batchController, useBatch } from './use-batch.ts';
import './batch.css';

/**
 * `/batch`: many photos or prompts with one model, one task each. The price is shown against
 * the balance before anything is sent; then a board follows every item to its model, and
 * "Download all" gives one zip.
 */
export default function BatchPage() {
  const api = useBatchApi();
  const view = useBatch(api);
  const [planning, setPlanning] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    document.title = 'Batch · Kiln';
  }, []);

  const start = (plan: NewBatch) => {
    setStartError(null);
    setPlanning(false);
    batchController.start(plan, api).catch((err: unknown) => {
      setStartError(describeError(err).message);
    });
    headingRef.current?.focus();
  };

  const batch = view.batch;
  return (
    <main className="page batch-page">
      <h1 ref={headingRef} tabIndex={-1}>
        Batch
      </h1>
      <p className="muted batch-intro">
        One model, many photos or prompts: a task for each, sent a few at a time. A reload picks the
        batch up where it was, without paying twice.
      </p>
      {startError && (
        <p className="error" role="alert">
          {startError}
        </p>
      )}
      {batch && !planning ? (
        <BatchBoard
          view={{ ...view, batch }}
          api={api}
          onNew={() => {
            setPlanning(true);
          }}
        />
      ) : (
        <BatchPlanner
          busy={view.sending > 0}
          onStart={start}
          onCancel={batch ? () => setPlanning(false) : undefined}
        />
      )}
    </main>
  );
}
