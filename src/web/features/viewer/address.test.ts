import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './address.ts';

describe('sameOriginPath', () => {
  it('opens paths on this site only', () => {
    expect(sameOriginPath('/api/assets/abc.glb')).toBe('/api/assets/abc.glb');
    expect(sameOriginPath('https://example.com/x.glb')).toBeNull();
    expect(sameOriginPath('//example.com/x.glb')).toBeNull();
    expect(sameOriginPath('/\\example.com/x.glb')).toBeNull();
    expect(sameOriginPath('javascript:alert(1)')).toBeNull();
    expect(sameOriginPath('')).toBeNull();
    expect(sameOriginPath(null)).toBeNull();
  });
});

describe('whose model each side shows', () => {
  it('writes and reads the task and the optimised target of each side', async () => {
    const { originQuery, viewerHref, addressPath } = await import('./address.ts');
    const one = viewerHref({ url: '/api/assets/a.glb?exp=1&sig=x', taskId: 'task_1' });
    expect(one).toBe('/viewer?src=%2Fapi%2Fassets%2Fa.glb%3Fexp%3D1%26sig%3Dx&task=task_1');
    expect(originQuery(one.slice(7))).toEqual({
      a: { taskId: 'task_1', optimised: null },
      b: { taskId: null, optimised: null },
    });
    const two = viewerHref(
      { url: '/api/assets/a.glb', taskId: 'task_1' },
      { url: '/api/optimise/files/b.glb', taskId: 'task_1', optimised: 'Web / AR' },
    );
    expect(originQuery(two.slice(7))).toEqual({
      a: { taskId: 'task_1', optimised: null },
      b: { taskId: 'task_1', optimised: 'Web / AR' },
    });
    expect(addressPath('/api/assets/a.glb?exp=1&sig=x')).toBe('/api/assets/a.glb');
    expect(originQuery(`?task=${'x'.repeat(300)}`).a.taskId).toBeNull();
  });
});
