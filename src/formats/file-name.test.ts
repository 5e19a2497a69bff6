import { describe, expect, it } from 'vitest';
import { MAX_SLUG_LENGTH, glbFileName, isoDay, slugify } from './file-name.ts';

/** Unix seconds of a local date, so the tests hold in any time zone. */
const localSeconds = (y: number, m: number, d: number, h = 12) =>
  new Date(y, m - 1, d, h).getTime() / 1000;

describe('slugify', () => {
  it('lowercases and joins words with single dashes', () => {
    expect(slugify('A Red Vase')).toBe('a-red-vase');
    expect(slugify('  a   red\tvase\n')).toBe('a-red-vase');
  });

  it('drops punctuation, quotes and symbols, and trims dashes', () => {
    expect(slugify('“A red vase!” — glazed, 20cm…')).toBe('a-red-vase-glazed-20cm');
    expect(slugify('--hello--world--')).toBe('hello-world');
    expect(slugify('a/b\\c:d*e?f"g<h>i|j')).toBe('a-b-c-d-e-f-g-h-i-j');
  });

  it('folds accents and a few ligatures to ASCII', () => {
    expect(slugify('Crème brûlée à la café')).toBe('creme-brulee-a-la-cafe');
    expect(slugify('Straße Æther Øre')).toBe('strasse-aether-ore');
  });

  it('returns empty for text with nothing sluggable', () => {
    expect(slugify('🏺🌹')).toBe('');
    expect(slugify('赤い花瓶')).toBe('');
    expect(slugify('')).toBe('');
  });

  it('cuts long text at a word boundary, never past the limit', () => {
    const long = 'a tall ceramic vase with a crackled celadon glaze and gold rim';
    const slug = slugify(long);
    expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(slug).toBe('a-tall-ceramic-vase-with-a-crackled');
    expect(long.replace(/ /g, '-').startsWith(slug)).toBe(true);
    expect(slug.endsWith('-')).toBe(false);
  });

  it('cuts a single over-long word hard', () => {
    expect(slugify('x'.repeat(100))).toBe('x'.repeat(MAX_SLUG_LENGTH));
    expect(slugify('abcdef ghij', 4)).toBe('abcd');
  });

  it('keeps text that exactly fits', () => {
    expect(slugify('abcd efgh', 9)).toBe('abcd-efgh');
    expect(slugify('abcd efgh', 8)).toBe('abcd');
  });
});

describe('isoDay', () => {
  it('formats the local date with zero padding', () => {
    expect(isoDay(new Date(2025, 0, 5))).toBe('2025-01-05');
    expect(isoDay(new Date(2024, 11, 31, 23, 59))).toBe('2024-12-31');
    expect(isoDay(new Date(999, 8, 9))).toBe('0999-09-09');
  });
});

describe('glbFileName', () => {
  it('names a photo task by the photo’s own name, and ends with the task id', () => {
    expect(
      glbFileName({
        id: 'task_65b81a3d413f64d56b6c6f99',
        model: 'alpha',
        images: [{ name: 'Red Chair (final).JPG' }],
        created: localSeconds(2025, 3, 9),
      }),
    ).toBe('kiln-alpha-red-chair-final-2025-03-09-6c6f99.glb');
  });

  it('gives two photo tasks of one day different names', () => {
    const a = glbFileName({
      id: 'task_aaaaaa111111',
      model: 'alpha',
      created: localSeconds(2025, 3, 9),
    });
    const b = glbFileName({
      id: 'task_bbbbbb222222',
      model: 'alpha',
      created: localSeconds(2025, 3, 9),
    });
    expect(a).not.toBe(b);
  });

  it('names a text task by its prompt', () => {
    expect(
      glbFileName({ model: 'beta-text', prompt: 'A red vase', created: localSeconds(2025, 1, 5) }),
    ).toBe('kiln-beta-text-a-red-vase-2025-01-05.glb');
  });

  it("names a photo task 'photo'", () => {
    expect(glbFileName({ model: 'gamma', prompt: null, created: localSeconds(2025, 3, 9) })).toBe(
      'kiln-gamma-photo-2025-03-09.glb',
    );
    expect(glbFileName({ model: 'alpha', created: localSeconds(2025, 3, 9) })).toBe(
      'kiln-alpha-photo-2025-03-09.glb',
    );
    expect(glbFileName({ model: 'alpha', prompt: '   ', created: localSeconds(2025, 3, 9) })).toBe(
      'kiln-alpha-photo-2025-03-09.glb',
    );
  });

  it("falls back to 'prompt' when the prompt has nothing sluggable", () => {
    expect(
      glbFileName({ model: 'beta-text', prompt: '🏺', created: localSeconds(2025, 1, 5) }),
    ).toBe('kiln-beta-text-prompt-2025-01-05.glb');
  });

  it('slugs an odd model id and keeps names filesystem-safe', () => {
    const name = glbFileName({
      model: 'Vendor/Model v2',
      prompt: '../../etc/passwd',
      created: localSeconds(2025, 1, 5),
    });
    expect(name).toBe('kiln-vendor-model-v2-etc-passwd-2025-01-05.glb');
    expect(name).toMatch(/^[a-z0-9-]+\.glb$/);
  });

  it('uses the local day of `created` (unix seconds)', () => {
    expect(
      glbFileName({ model: 'beta', prompt: null, created: localSeconds(2025, 12, 31, 23) }),
    ).toBe('kiln-beta-photo-2025-12-31.glb');
    expect(glbFileName({ model: 'beta', prompt: null, created: localSeconds(2026, 1, 1, 0) })).toBe(
      'kiln-beta-photo-2026-01-01.glb',
    );
  });

  it('still makes a valid name from a broken timestamp', () => {
    expect(glbFileName({ model: 'beta', prompt: null, created: Number.NaN })).toMatch(
      /^kiln-beta-photo-\d{4}-\d{2}-\d{2}\.glb$/,
    );
  });

  it('names a named model by its name, else by its prompt or photo as before', () => {
    const created = localSeconds(2025, 1, 5);
    const id = 'task_65b81a3d413f64d56b6c6f99';
    expect(
      glbFileName({ id, model: 'beta-text', prompt: 'A red vase', name: 'Blue Teapot', created }),
    ).toBe('kiln-beta-text-blue-teapot-2025-01-05-6c6f99.glb');
    expect(
      glbFileName({
        model: 'alpha',
        images: [{ name: 'chair.png' }],
        name: 'Oma’s chair',
        created,
      }),
    ).toBe('kiln-alpha-oma-s-chair-2025-01-05.glb');
    // A name with nothing sluggable, or none, leaves the prompt or the photo to name it.
    expect(glbFileName({ model: 'beta-text', prompt: 'A red vase', name: '🏺', created })).toBe(
      'kiln-beta-text-a-red-vase-2025-01-05.glb',
    );
    expect(
      glbFileName({ model: 'alpha', images: [{ name: 'chair.png' }], name: null, created }),
    ).toBe('kiln-alpha-chair-2025-01-05.glb');
  });
});
