import { describe, expect, it, vi } from 'vitest';
import { CameraLink } from './camera-link.ts';

describe('CameraLink', () => {
  it('sends a pose to the other viewers only, and not when switched off', () => {
    const link = new CameraLink();
    const a = vi.fn();
    const b = vi.fn();
    const idA = Symbol('a');
    const leaveB = link.join(Symbol('b'), b);
    link.join(idA, a);
    const pose = { position: [1, 2, 3], target: [0, 0, 0] } as const;
    link.publish(idA, { position: [...pose.position], target: [...pose.target] });
    expect(a).not.toHaveBeenCalled();
    expect(b).toHaveBeenCalledWith({ position: [1, 2, 3], target: [0, 0, 0] });
    link.setEnabled(false);
    link.publish(idA, { position: [4, 5, 6], target: [0, 0, 0] });
    expect(b).toHaveBeenCalledTimes(1);
    expect(link.last?.position).toEqual([4, 5, 6]);
    leaveB();
    expect(link.size).toBe(1);
  });
});
