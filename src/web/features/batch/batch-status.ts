// Where a batch item stands, in one short line: before its task (waiting, uploading, sending,
// refused), or its task's stage and progress. Pure.
import { progressOf, stageForProgress, stageFromName, type Task } from '../../../contract/index.ts';
import { fieldMessage } from '../../lib/describe-error.ts';
import type { BatchItem } from './batch-store.ts';

type Tone = 'waiting' | 'running' | 'ok' | 'failed';

export interface ItemStatus {
  tone: Tone;
  /** One short line: the stage, or what went wrong. */
  line: string;
  /** 0–100 while something moves (an upload, a task), else null. */
  progress: number | null;
}

/** Where an item stands: before its task (queued, uploading, sending, refused) or its task's state. */
export function itemStatus(item: BatchItem, task: Task | undefined, upload?: number): ItemStatus {
  switch (item.state) {
    case 'queued':
      return { tone: 'waiting', line: 'Waiting to be sent', progress: null };
    case 'uploading':
      // Once its bytes are sent, Kiln checks and prepares the photo before answering.
      if (upload !== undefined && upload >= 1)
        return { tone: 'running', line: 'Preparing the photo…', progress: null };
      return {
        tone: 'running',
        line: `Uploading the photo${upload !== undefined ? ` ${Math.round(upload * 100)}%` : '…'}`,
        progress: upload !== undefined ? Math.round(upload * 100) : null,
      };
    case 'creating':
      return { tone: 'running', line: 'Sending…', progress: null };
    case 'failed':
      return { tone: 'failed', line: item.error ?? 'Not sent.', progress: null };
    case 'created':
      break;
  }
  if (!task) return { tone: 'running', line: 'Sent', progress: 0 };
  if (task.status === 'completed') return { tone: 'ok', line: 'Completed', progress: 100 };
  if (task.status === 'failed')
    return {
      tone: 'failed',
      line: task.error ? fieldMessage(task.error) : 'The task failed.',
      progress: null,
    };
  const progress = progressOf(task);
  const stage = stageFromName(task.progress_stage) ?? stageForProgress(progress);
  return { tone: 'running', line: `${stage.label} · ${progress}%`, progress };
}
