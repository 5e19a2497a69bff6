// The progress board alone: redrawn in place on a terminal, plain lines (each change once)
// in a log, and plain lines when a terminal has fewer rows than the board has items.
import { describe, expect, it } from 'vitest';
import type { Io } from './io.ts';
import { createBoard, taskState } from './progress.ts';

function ioOf(tty: boolean, rows = 40): Io & { said: () => string } {
  let err = '';
  return {
    out: () => {},
    err: (text) => void (err += text),
    errIsTty: tty,
    columns: 80,
    rows,
    cwd: '/',
    env: {},
    said: () => err,
  };
}

const task = (progress: number, status = 'pending') => ({ id: 'task_1', status, progress });

describe('the progress board', () => {
  it('on a terminal, draws a bar a line and redraws every line in place', () => {
    const io = ioOf(true);
    const board = createBoard(io, ['chair.png', 'teapot.png']);
    board.set(0, taskState(task(40), false));
    board.set(1, taskState(task(100, 'completed'), false));
    board.finish();
    board.set(0, { text: 'after the end' });
    const said = io.said();
    expect(said.split('\u001b[2A')).toHaveLength(3);
    expect(said).toContain('chair.png   [########------------]  40%  Generating 3D mesh\n');
    expect(said).toContain('teapot.png  [####################] 100%  Completed\n');
    expect(said).not.toContain('after the end');
  });

  it('in a log, prints each change once as a plain line', () => {
    const io = ioOf(false);
    const board = createBoard(io, ['chair.png']);
    board.set(0, taskState(task(20), false));
    board.set(0, taskState(task(20), false));
    board.set(0, taskState(task(100, 'completed'), false));
    board.set(0, taskState({ ...task(0, 'failed'), error: { message: 'No object.' } }, false));
    expect(io.said()).toBe(
      'chair.png: 20% Downloading images\nchair.png: Completed\nchair.png: failed: No object.\n',
    );
  });

  it('falls back to plain lines when the terminal is too short to redraw the board', () => {
    const io = ioOf(true, 3);
    const board = createBoard(io, ['a.png', 'b.png', 'c.png']);
    board.set(2, { text: 'uploading' });
    expect(io.said()).toBe('c.png: uploading\n');
  });
});
