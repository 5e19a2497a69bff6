import { describe, expect, it } from 'vitest';
import { parseRoute } from '../../lib/router.ts';
import { chosenModel, modelSearch } from './collection-choice.ts';
import { checkCollectionName, modelCount } from './collection-name.ts';

const MINE = [
  { id: 'col_a', name: 'Chairs' },
  { id: 'col_b', name: 'Client X' },
];

describe('checkCollectionName', () => {
  it('keeps a good name, trimmed', () => {
    expect(checkCollectionName('  Lamps ', MINE)).toEqual({ ok: true, name: 'Lamps' });
    expect(checkCollectionName('x'.repeat(120))).toEqual({ ok: true, name: 'x'.repeat(120) });
  });

  it('wants a name: empty or blank is refused', () => {
    for (const blank of ['', '   '])
      expect(checkCollectionName(blank)).toEqual({
        ok: false,
        message: 'Give the collection a name.',
      });
  });

  it('says what the model-name rules refuse, naming the field as the field says it', () => {
    const long = checkCollectionName('x'.repeat(121));
    expect(long).toEqual({
      ok: false,
      message: 'Name must be at most 120 characters (this one has 121).',
    });
    const control = checkCollectionName('two\nlines');
    expect(control.ok).toBe(false);
    expect(!control.ok && control.message).toMatch(/^Name must not hold control characters/);
    const bidi = checkCollectionName('evil\u202Egnp');
    expect(!bidi.ok && bidi.message).toMatch(/^Name must not hold direction overrides/);
  });

  it('refuses a name the owner already uses, whatever its case, but not its own', () => {
    expect(checkCollectionName('chairs', MINE)).toEqual({
      ok: false,
      message: 'You already have a collection called “Chairs”.',
    });
    expect(checkCollectionName(' CLIENT x ', MINE).ok).toBe(false);
    expect(checkCollectionName('chairs', MINE, 'col_a')).toEqual({ ok: true, name: 'chairs' });
  });

  it('counts models in words', () => {
    expect([0, 1, 2].map(modelCount)).toEqual(['0 models', '1 model', '2 models']);
  });
});

describe('the shared collection’s page', () => {
  it('is routed at /c/{token} and /c/{token}/embed, nothing else under /c', () => {
    const token = 'AbC-_0123456789abcdefXYZ';
    expect(parseRoute(`/c/${token}`)).toEqual({ page: 'collection', token, embed: false });
    expect(parseRoute(`/c/${token}/`)).toEqual({ page: 'collection', token, embed: false });
    expect(parseRoute(`/c/${token}/embed`)).toEqual({ page: 'collection', token, embed: true });
    for (const path of ['/c', '/c/', `/c/${token}/other`, '/c/a%2Fb', `/collections/${token}`])
      expect(parseRoute(path), path).toEqual({ page: 'not-found' });
  });

  it('shows the model the address chooses (?m=), else the first', () => {
    const models = [{ index: 0 }, { index: 1 }, { index: 2 }];
    expect(chosenModel(models, '')).toBe(models[0]);
    expect(chosenModel(models, '?m=2')).toBe(models[2]);
    for (const bad of ['?m=7', '?m=-1', '?m=1.5', '?m=x', '?m=', '?m=99999999'])
      expect(chosenModel(models, bad), bad).toBe(models[0]);
    expect(chosenModel([], '?m=0')).toBeNull();
  });

  it('writes the choice into the address, keeping what else is there', () => {
    expect(modelSearch('', 3)).toBe('?m=3');
    expect(modelSearch('?m=1', 0)).toBe('?m=0');
    expect(modelSearch('?utm=x&m=1', 2)).toBe('?utm=x&m=2');
  });
});
