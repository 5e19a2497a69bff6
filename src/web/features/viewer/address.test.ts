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
    // A library entry by its id alone: no signed address to expire in a bookmark.
    expect(one).toBe('/viewer?task=task_1');
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
    // The optimised copy has no entry of its own: its address stays.
    expect(two).toBe(
      '/viewer?a_task=task_1&b=%2Fapi%2Foptimise%2Ffiles%2Fb.glb&b_task=task_1&b_optimised=Web+%2F+AR',
    );
    expect(
      viewerHref(
        { url: '/api/assets/a.glb?exp=1', taskId: 'task_1' },
        { url: '/x.glb?exp=2', taskId: 'task_2' },
      ),
    ).toBe('/viewer?a_task=task_1&b_task=task_2');
    // A model with no entry (a file by address) keeps its address.
    expect(viewerHref({ url: '/e2e-files/draco.glb' })).toBe(
      '/viewer?src=%2Fe2e-files%2Fdraco.glb',
    );
    expect(addressPath('/api/assets/a.glb?exp=1&sig=x')).toBe('/api/assets/a.glb');
    expect(originQuery(`?task=${'x'.repeat(300)}`).a.taskId).toBeNull();
  });
});

describe('what each side of a /viewer address opens', () => {
  it('an entry by its id when the library can be asked, old links with an address included', async () => {
    const { slotFromQuery } = await import('./slot.ts');
    const { modelQuery, originQuery } = await import('./address.ts');
    const open = (search: string, signedIn: boolean) => {
      const query = modelQuery(search);
      const origin = originQuery(search);
      return [
        slotFromQuery(query.a, origin.a, signedIn),
        slotFromQuery(query.b, origin.b, signedIn),
      ];
    };
    // New links: ids only.
    expect(open('?a_task=task_1&b_task=task_2', true)).toEqual([
      { kind: 'entry', taskId: 'task_1', url: null },
      { kind: 'entry', taskId: 'task_2', url: null },
    ]);
    // An old link whose signed address has expired: the id is read first, signed in.
    const old =
      '?a=%2Fapi%2Fassets%2Fa.glb%3Fexp%3D1%26sig%3Dx&a_task=task_1&b=%2Fapi%2Fassets%2Fb.glb&b_task=task_2';
    expect(open(old, true)[0]).toEqual({
      kind: 'entry',
      taskId: 'task_1',
      url: '/api/assets/a.glb?exp=1&sig=x',
    });
    // Without a key, the old link's address is what can be opened.
    expect(open(old, false)[0]).toMatchObject({
      kind: 'url',
      url: '/api/assets/a.glb?exp=1&sig=x',
      taskId: 'task_1',
    });
    // An optimised copy is opened by its address.
    expect(
      open('?a_task=t&b=%2Fapi%2Foptimise%2Ffiles%2Fb.glb&b_task=t&b_optimised=Web', true)[1],
    ).toMatchObject({
      kind: 'url',
      url: '/api/optimise/files/b.glb',
      optimised: 'Web',
    });
    expect(open('', true)).toEqual([{ kind: 'none' }, { kind: 'none' }]);
  });
});
