import { describe, expect, it } from 'vitest';
import { libraryEntry } from '../../testing/library-entry.ts';
import { modelTitle } from '../../contract/index.ts';
import {
  archiveNote,
  costLabelOf,
  failureChargeWords,
  formatDuration,
  originFacts,
  secondsTaken,
  outageListNote,
  describeEntries,
  describeEntry,
  formatNumber,
  isoDateTime,
  nameOf,
  promptExcerpt,
  statusView,
  madeFromOf,
  titleOf,
  taskLabel,
} from './entry-format.ts';

describe('statusView', () => {
  it('labels the three spec statuses', () => {
    expect(statusView({ status: 'completed', progress: 100 })).toEqual({
      label: 'Completed',
      tone: 'ok',
    });
    expect(statusView({ status: 'failed', progress: 30 })).toEqual({
      label: 'Failed',
      tone: 'failed',
    });
    expect(statusView({ status: 'pending', progress: 42.4 })).toEqual({
      label: 'In progress 42%',
      tone: 'pending',
    });
  });

  it('clamps odd progress values', () => {
    expect(statusView({ status: 'pending', progress: -5 }).label).toBe('In progress 0%');
    expect(statusView({ status: 'pending', progress: 180 }).label).toBe('In progress 100%');
    expect(statusView({ status: 'pending', progress: Number.NaN }).label).toBe('In progress 0%');
  });

  it('shows any other status in words', () => {
    expect(statusView({ status: 'queued_for_review', progress: 0 })).toEqual({
      label: 'Queued for review',
      tone: 'other',
    });
    expect(statusView({ status: '', progress: 0 }).label).toBe('Unknown');
  });
});

describe('promptExcerpt', () => {
  it('keeps a short prompt whole', () => {
    expect(promptExcerpt('a red vase')).toBe('a red vase');
    expect(promptExcerpt('  a   red\nvase ')).toBe('a red vase');
  });

  it('keeps the first words and adds an ellipsis', () => {
    expect(promptExcerpt('one two three four five six seven eight nine ten')).toBe(
      'one two three four five six seven eight…',
    );
    expect(promptExcerpt('one two three', 2)).toBe('one two…');
  });

  it('cuts a prompt of very long words by characters', () => {
    const out = promptExcerpt('supercalifragilistic '.repeat(6), 8, 30);
    expect(out.endsWith('…')).toBe(true);
    expect(out.length).toBeLessThanOrEqual(31);
    expect(promptExcerpt('x'.repeat(100), 8, 10)).toBe(`${'x'.repeat(10)}…`);
  });
});

describe('formatting', () => {
  it('gives an ISO datetime attribute, or empty for a bad time', () => {
    expect(isoDateTime(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(isoDateTime(Number.NaN)).toBe('');
  });

  it('formats whole numbers', () => {
    expect(formatNumber(960)).toBe('960');
    expect(formatNumber(1000).replace(/\D/g, '')).toBe('1000');
  });
});

describe('taskLabel', () => {
  it('names a text task by model and prompt', () => {
    expect(taskLabel({ model: 'beta-text', prompt: 'a red vase' }, '5 Jan 2025, 14:02')).toBe(
      'beta-text task “a red vase” from 5 Jan 2025, 14:02',
    );
  });
  it('shortens a long prompt', () => {
    expect(
      taskLabel({ model: 'beta-text', prompt: 'one two three four five six seven' }, 'today'),
    ).toBe('beta-text task “one two three four five…” from today');
  });
  it('names a photo task by model alone', () => {
    expect(taskLabel({ model: 'gamma', prompt: null }, 'today')).toBe('gamma task from today');
    expect(taskLabel({ model: 'gamma', prompt: '  ' }, 'today')).toBe('gamma task from today');
    // A photo task is named by its photo's file name.
    expect(
      taskLabel(
        { model: 'beta', prompt: null, images: [{ url: 'x', upload: 'u', name: 'chair.png' }] },
        'today',
      ),
    ).toBe('beta task of chair.png from today');
    expect(
      taskLabel(
        {
          model: 'beta-multiview',
          prompt: null,
          images: [
            { url: 'x', upload: 'u', name: 'front.png' },
            { url: 'y', upload: 'v', name: 'right.png' },
          ],
        },
        'today',
      ),
    ).toBe('beta-multiview task of front.png + 1 more from today');
  });
});

describe('archiveNote', () => {
  const archive = (state: 'none' | 'pending' | 'retrying' | 'archived' | 'failed', more = {}) => ({
    state,
    attempts: 0,
    error: null,
    next_attempt_ms: null,
    ...more,
  });
  const at = () => '3:42 PM';

  it('says nothing when the copy is there, on its way, or not due', () => {
    expect(archiveNote({ status: 'completed', archive: archive('archived') }, at)).toBeNull();
    expect(archiveNote({ status: 'completed', archive: archive('pending') }, at)).toBeNull();
    expect(archiveNote({ status: 'pending', archive: archive('none') }, at)).toBeNull();
    expect(archiveNote({ status: 'completed' }, at)).toBeNull();
  });

  it('says when Kiln tries again', () => {
    expect(
      archiveNote(
        { status: 'completed', archive: archive('retrying', { attempts: 1, next_attempt_ms: 1 }) },
        at,
      ),
    ).toBe('Kiln could not keep a copy of this model yet; it tries again at 3:42 PM.');
  });

  it('says which of Kiln’s stores it waits on, that Kiln tries again by itself, and when', () => {
    const waiting = (
      state: 'pending' | 'retrying',
      outage: 'file_store' | 'database',
      next: number,
    ) =>
      archiveNote(
        {
          status: 'completed',
          archive: archive(state, {
            attempts: state === 'pending' ? 0 : 2,
            error: 'the server’s sentence',
            next_attempt_ms: next,
            outage,
          }),
        },
        at,
        1_000,
      );
    expect(waiting('pending', 'file_store', 16_000)).toBe(
      'Kiln’s file store cannot be reached, so Kiln has not kept its copy of this model yet. It tries again by itself at 3:42 PM.',
    );
    // After failures of its own, the outage is what it waits on now: no count, no "after 2 tries".
    expect(waiting('retrying', 'file_store', 16_000)).toBe(
      'Kiln’s file store cannot be reached, so Kiln has not kept its copy of this model yet. It tries again by itself at 3:42 PM.',
    );
    expect(waiting('pending', 'database', 16_000)).toMatch(/^Kiln’s database cannot be reached/);
    // The time has come: the next sweep takes it.
    expect(waiting('pending', 'file_store', 500)).toMatch(
      /It tries again by itself in a moment\.$/,
    );
  });

  it('says it gave up, why, and that the link expires', () => {
    expect(
      archiveNote(
        {
          status: 'completed',
          archive: archive('failed', { attempts: 5, error: 'the file is not a GLB' }),
        },
        at,
      ),
    ).toBe(
      "Kiln could not keep a copy of this model after 5 tries (the file is not a GLB). Download it soon: the provider's link expires.",
    );
  });
});

describe('outageListNote', () => {
  const waiting = (next: number, outage: 'file_store' | 'database' = 'file_store') => ({
    status: 'completed',
    archived: false,
    archive: { state: 'pending' as const, attempts: 0, error: 'x', next_attempt_ms: next, outage },
  });
  const kept = {
    status: 'completed',
    archived: true,
    archive: { state: 'archived' as const, attempts: 1, error: null, next_attempt_ms: null },
  };
  const at = (ms: number) => `at-${ms}`;

  it('counts the models whose copy waits on Kiln’s store and says the soonest try', () => {
    expect(outageListNote([kept, waiting(9_000)], at, 1_000)).toBe(
      '1 finished model is not here yet: Kiln’s file store cannot be reached, so Kiln has not kept its copy. It tries again by itself at at-9000. It appears here once kept.',
    );
    expect(outageListNote([waiting(9_000), kept, waiting(5_000)], at, 1_000)).toBe(
      '2 finished models are not here yet: Kiln’s file store cannot be reached, so Kiln has not kept their copies. It tries again by itself at at-5000. They appear here once kept.',
    );
  });

  it('says nothing when no copy waits on a store', () => {
    expect(outageListNote([kept], at, 1_000)).toBeNull();
    expect(
      outageListNote(
        [{ ...kept, archived: false, archive: { ...kept.archive, state: 'pending' as const } }],
        at,
        1_000,
      ),
    ).toBeNull();
  });
});

describe('describeEntry', () => {
  const entry = libraryEntry;

  it('names a photo entry by its file name, several views by the first and a count, with the minute', () => {
    const one = describeEntry(
      entry({ images: [{ url: 'u', upload: '/api/uploads/a.png', name: 'chair.png' }] }),
    );
    expect(one).toMatch(/^beta · chair\.png · .*\d{1,2}:\d{2}/);
    const views = describeEntry(
      entry({
        model: 'beta-multiview',
        images: [
          { url: 'u1', upload: '/api/uploads/a.png', name: 'front.png' },
          { url: 'u2', upload: '/api/uploads/b.png', name: 'side.png' },
        ],
      }),
    );
    expect(views).toMatch(/^beta-multiview · front\.png \+ 1 more · /);
    expect(describeEntry(entry({ images: [{ url: 'u', upload: null }] }))).toMatch(
      / · A 3D model from a photo · /,
    );
  });

  it('quotes a prompt, cut as every title is, and tells two entries a minute apart', () => {
    const long = describeEntry(entry({ model: 'beta-text', prompt: 'a'.repeat(200) }));
    expect(long).toContain(`“${'a'.repeat(97)}…”`);
    const a = describeEntry(entry({ prompt: 'a cube' }));
    const b = describeEntry(
      entry({ prompt: 'a cube', created: Date.UTC(2026, 10, 24, 15, 33) / 1000 }),
    );
    expect(a).not.toBe(b);
  });

  it('tells apart entries that read alike in a list: the second, then a number', () => {
    const at = (s: number) => Date.UTC(2026, 10, 24, 15, 32, s) / 1000;
    const labels = describeEntries([
      entry({ id: 'a', prompt: 'a cube', created: at(7) }),
      entry({ id: 'b', prompt: 'a cube', created: at(41) }),
      entry({ id: 'c', prompt: 'a cube', created: at(41) }),
      entry({ id: 'd', prompt: 'a ball', created: at(41) }),
    ]);
    expect(new Set(labels).size).toBe(4);
    // The one that reads apart already stays as it was.
    expect(labels[3]).toBe(describeEntry(entry({ prompt: 'a ball', created: at(41) })));
    expect(labels[0]).toMatch(/ \(.*\d{1,2}:32:07.*\)$/);
    expect(labels[1]).toMatch(/:32:41.*\)$/);
    expect(labels[2]).toMatch(/:32:41.*, 2\)$/);
  });
});

describe('names (decision 0085)', () => {
  const named = libraryEntry({ model: 'beta-text', prompt: 'a red vase', name: 'Blue teapot' });

  it('puts the name first, what it was made from beside it', () => {
    expect(taskLabel(named, 'today')).toBe('Blue teapot, beta-text task “a red vase” from today');
    expect(describeEntry(named)).toMatch(/^beta-text · Blue teapot \(“a red vase”\) · /);
    expect(nameOf(named)).toBe('Blue teapot');
    expect(madeFromOf(named)).toBe('“a red vase”');
  });

  it('reads as before without a name (null, absent or blank)', () => {
    for (const name of [null, undefined, '  ']) {
      const entry = { ...named, name };
      expect(nameOf(entry)).toBeNull();
      expect(taskLabel(entry, 'today')).toBe('beta-text task “a red vase” from today');
      expect(describeEntry(entry)).toMatch(/^beta-text · “a red vase” · /);
    }
    expect(titleOf({ prompt: null, images: [{ url: 'x', upload: 'u', name: 'chair.png' }] })).toBe(
      'chair.png',
    );
  });
});

describe('titleOf and madeFromOf (the one title rule, modelTitle of src/contract)', () => {
  const photo = (name?: string) => ({ url: 'u', upload: null, ...(name ? { name } : {}) });
  it('says what a task was made from: the prompt, the photo’s name, or how many photos', () => {
    expect(madeFromOf({ prompt: '  a red vase ', images: [] })).toBe('“a red vase”');
    expect(madeFromOf({ prompt: null, images: [photo('chair.png')] })).toBe('chair.png');
    expect(madeFromOf({ prompt: null, images: [photo('front.png'), photo()] })).toBe(
      'front.png + 1 more',
    );
    expect(madeFromOf({ prompt: null, images: [photo(), photo(), photo()] })).toBe(
      'A 3D model from 3 photos',
    );
    expect(madeFromOf({ prompt: null, images: [photo()] })).toBe('A 3D model from a photo');
  });
  it('calls a model by its name, else by what it was made from, as a shared page does', () => {
    expect(titleOf({ prompt: 'a red vase', images: [], name: ' Blue teapot ' })).toBe(
      'Blue teapot',
    );
    expect(titleOf({ prompt: 'a red vase', images: [], name: null })).toBe('“a red vase”');
    expect(titleOf({ prompt: null, images: [photo('robot.jpg')], name: '' })).toBe('robot.jpg');
    const long = { prompt: 'x'.repeat(200), images: [] };
    expect(titleOf(long)).toBe(modelTitle(long));
    expect(titleOf(long)).toBe(`“${'x'.repeat(97)}…”`);
  });
});

describe('where a model came from (decision 0116)', () => {
  it('says a duration in seconds, then minutes and seconds', () => {
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(630)).toBe('10 min 30 s');
  });

  it('takes the seconds from created to completed, and none before the end', () => {
    const done = libraryEntry({ status: 'completed', created: 1_000, completed_at: 1_042 });
    expect(secondsTaken(done)).toBe(42);
    expect(secondsTaken({ ...done, status: 'pending', completed_at: null })).toBeNull();
    expect(secondsTaken({ ...done, status: 'failed' })).toBeNull();
    expect(secondsTaken({ ...done, completed_at: 900 })).toBeNull();
  });

  it('lists made by, time taken and price, a dash for what is not known', () => {
    const fal = libraryEntry({
      model: 'fal/fal-ai/trellis',
      status: 'completed',
      created: 1_000,
      completed_at: 1_009,
      credits_consumed: null,
      cost: { amount: 0.02, unit: 'USD' },
    });
    expect(originFacts(fal).map((f) => f.value)).toEqual([
      'fal · fal/fal-ai/trellis',
      '9 s',
      '$0.02',
    ]);
    const spec = libraryEntry({ model: 'beta', status: 'pending', credits_consumed: null });
    expect(originFacts(spec).map((f) => f.value)).toEqual(['Kiln API · beta', '—', '—']);
  });
});

describe('costLabelOf', () => {
  it("says a task's cost in its provider's own unit, as the model picker says a price", () => {
    expect(costLabelOf({ credits_consumed: null, cost: { amount: 0.02, unit: 'USD' } })).toBe(
      '$0.02',
    );
    expect(costLabelOf({ credits_consumed: null, cost: { amount: 30, unit: 'credits' } })).toBe(
      '30 credits',
    );
    expect(costLabelOf({ credits_consumed: 10, cost: null })).toBe('10 credits');
    expect(costLabelOf({ credits_consumed: 1 })).toBe('1 credit');
  });

  it('says nothing when nothing was charged or it is not known', () => {
    expect(costLabelOf({ credits_consumed: null, cost: { amount: 0, unit: 'USD' } })).toBeNull();
    expect(costLabelOf({ credits_consumed: 0, cost: null })).toBeNull();
    expect(costLabelOf({ credits_consumed: null })).toBeNull();
  });
});

describe('failureChargeWords', () => {
  it("says the spec's refund, with its price when known", () => {
    expect(failureChargeWords({ model: 'beta' }, 15)).toBe(
      '15 credits refunded — failed tasks cost nothing.',
    );
    expect(failureChargeWords(undefined, null)).toBe(
      'The credits for this task were refunded — failed tasks cost nothing.',
    );
  });

  it("says a provider's own charge in its unit, never the spec's refund", () => {
    expect(failureChargeWords({ model: 'fal/fal-ai/trellis', cost: null }, null)).toBe(
      'fal charged nothing for this failed task.',
    );
    expect(
      failureChargeWords({ model: 'fal/fal-ai/trellis', cost: { amount: 0, unit: 'USD' } }, null),
    ).toBe('fal charged nothing for this failed task.');
    expect(
      failureChargeWords({ model: 'meshy/meshy-6', cost: { amount: 20, unit: 'credits' } }, null),
    ).toBe('Meshy kept 20 credits for the stages this task finished.');
  });
});
