import { afterEach, describe, expect, it, vi } from 'vitest';
import { FrameClock } from './frame-clock.ts';

describe('FrameClock', () => {
  afterEach(() => vi.restoreAllMocks());

  it("keeps time as three's Clock does, in seconds, without a deprecation warning", () => {
    const warn = vi.spyOn(console, 'warn');
    let now = 1000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const clock = new FrameClock();
    expect(clock.getDelta()).toBe(0); // starts itself
    expect(clock.running).toBe(true);
    now += 250;
    expect(clock.getDelta()).toBeCloseTo(0.25);
    now += 500;
    expect(clock.getElapsedTime()).toBeCloseTo(0.75);
    clock.stop();
    now += 1000;
    expect(clock.getDelta()).toBe(0);
    expect(clock.elapsedTime).toBeCloseTo(0.75);
    expect(warn).not.toHaveBeenCalled();
  });
});
