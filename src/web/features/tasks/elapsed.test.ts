import { describe, expect, it } from 'vitest';
import { elapsedSeconds } from './elapsed.tsx';

describe('elapsedSeconds', () => {
  it('counts to now while the task runs', () => {
    expect(elapsedSeconds(100, null, true, 130)).toBe(30);
  });

  it('stops at the end a finished task names, however late it is looked at', () => {
    expect(elapsedSeconds(100, 142, false, 100_000)).toBe(42);
  });

  it('shows nothing for a task that ended at an unknown time, instead of counting on', () => {
    expect(elapsedSeconds(100, null, false, 730)).toBeNull();
  });

  it('shows nothing without a start', () => {
    expect(elapsedSeconds(null, null, true, 730)).toBeNull();
  });
});
