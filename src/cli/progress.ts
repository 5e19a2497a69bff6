// Progress on stderr, a line per item: on a terminal the lines are redrawn in place (a bar, the
// percentage, the stage); otherwise each change is printed once as a plain line, which a log
// file or CI keeps readable.
import { shownStage, type Task } from '../contract/index.ts';
import type { Io } from './io.ts';

export interface ItemState {
  /** 0–100, or undefined for a line without a bar (waiting, done, failed). */
  progress?: number | undefined;
  text: string;
}

export interface Board {
  set(index: number, state: ItemState): void;
  /** Draws nothing more; a terminal's cursor is left under the lines. */
  finish(): void;
}

const BAR = 20;
const ESC = '\u001b[';

function bar(progress: number): string {
  const filled = Math.round((Math.max(0, Math.min(100, progress)) / 100) * BAR);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}] ${String(Math.round(progress)).padStart(3)}%`;
}

/** A task's progress as the board shows it: its percentage and its stage in words. */
export function taskState(task: Task, fromPrompt: boolean): ItemState {
  const progress = task.progress ?? 0;
  if (task.status === 'completed') return { progress: 100, text: 'Completed' };
  if (task.status === 'failed')
    return { text: `failed: ${task.error?.message ?? 'the task failed'}` };
  return { progress, text: shownStage(task.progress_stage, progress, fromPrompt).label };
}

/** A board of `labels`, one line each, on `io`'s stderr. */
export function createBoard(io: Io, labels: readonly string[]): Board {
  const width = Math.min(32, Math.max(...labels.map((l) => l.length), 1));
  const label = (i: number) => {
    const text = labels[i] ?? '';
    return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
  };
  const states: ItemState[] = labels.map(() => ({ text: 'waiting' }));
  const lineOf = (i: number) => {
    const s = states[i]!;
    const line = `${label(i)}  ${s.progress === undefined ? '' : `${bar(s.progress)}  `}${s.text}`;
    return line.length > io.columns - 1 ? `${line.slice(0, io.columns - 2)}…` : line;
  };
  // More lines than the terminal shows cannot be redrawn in place: plain lines then.
  if (!io.errIsTty || labels.length >= io.rows) return plainBoard(io, labels, states);

  let drawn = false;
  const draw = () => {
    if (drawn) io.err(`${ESC}${labels.length}A`);
    io.err(labels.map((_, i) => `\r${ESC}2K${lineOf(i)}\n`).join(''));
    drawn = true;
  };
  draw();
  let finished = false;
  return {
    set(index, state) {
      if (finished) return;
      states[index] = state;
      draw();
    },
    finish() {
      finished = true;
    },
  };
}

/** Not a terminal: a line each time an item's words or percentage change. */
function plainBoard(io: Io, labels: readonly string[], states: ItemState[]): Board {
  const said = labels.map(() => '');
  return {
    set(index, state) {
      states[index] = state;
      const line = `${labels[index]}: ${state.progress === undefined || state.text === 'Completed' ? '' : `${Math.round(state.progress)}% `}${state.text}`;
      if (line === said[index]) return;
      said[index] = line;
      io.err(`${line}\n`);
    },
    finish() {},
  };
}
