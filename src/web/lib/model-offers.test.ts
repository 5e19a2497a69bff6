import { describe, expect, it } from 'vitest';
import type { ProviderModelRecord } from '../../contract/index.ts';
import {
  anotherModel,
  inputKindOf,
  offersFor,
  requestKind,
  vendorPriceWords,
} from './model-offers.ts';

const SPEC = [
  { id: 'alpha', input: 'image', credits: 5 },
  { id: 'alpha-multiview', input: 'multiview', credits: 10 },
  { id: 'beta', input: 'image', credits: 15 },
  { id: 'beta-multiview', input: 'multiview', credits: 20 },
  { id: 'gamma', input: 'image', credits: null },
  { id: 'beta-text', input: 'text', credits: 10 },
] as const;

const MESHY: ProviderModelRecord = {
  id: 'meshy/meshy-6',
  provider: 'meshy',
  label: 'Meshy 6',
  inputs: ['image', 'multiview', 'text'],
  price: { image: 30, multiview: 30, text: 30 },
  unit: 'credits',
  description: '',
};
const TRELLIS: ProviderModelRecord = {
  id: 'fal/fal-ai/trellis',
  provider: 'fal',
  label: 'TRELLIS',
  inputs: ['image'],
  price: { image: 0.02 },
  unit: 'USD',
  description: '',
};
const TRELLIS_MULTI: ProviderModelRecord = {
  ...TRELLIS,
  id: 'fal/fal-ai/trellis/multi',
  label: 'TRELLIS multi',
  inputs: ['multiview'],
  price: {},
};
const PROVIDERS = [
  { provider: 'meshy' as const, models: [MESHY] },
  { provider: 'fal' as const, models: [TRELLIS, TRELLIS_MULTI] },
];

const photo = { url: 'http://k/api/uploads/a.png', upload: '/api/uploads/a.png' };

describe('vendorPriceWords', () => {
  it("says each input the model takes at its price, in the provider's unit", () => {
    expect(vendorPriceWords(MESHY)).toBe(
      'One photo 30 credits · 2–4 photos 30 credits · Text prompt 30 credits',
    );
    expect(vendorPriceWords(TRELLIS)).toBe('One photo $0.02');
    expect(vendorPriceWords(TRELLIS_MULTI)).toBe('2–4 photos');
  });
});

describe('inputKindOf', () => {
  it('is a prompt, one photo, or 2–4 views; nothing when it cannot be sent again', () => {
    expect(inputKindOf({ images: [], prompt: 'a cup' })).toBe('text');
    expect(inputKindOf({ images: [photo], prompt: null })).toBe('image');
    expect(inputKindOf({ images: [photo, photo, photo], prompt: null })).toBe('multiview');
    expect(inputKindOf({ images: Array(5).fill(photo), prompt: null })).toBeNull();
    expect(inputKindOf({ images: [], prompt: '  ' })).toBeNull();
  });
});

describe('offersFor (decision 0116)', () => {
  it("offers a Meshy photo's other providers' photo models and the spec's, each priced in its unit", () => {
    const offers = offersFor(
      { model: 'meshy/meshy-6', images: [photo], prompt: null },
      SPEC,
      PROVIDERS,
    );
    expect(offers.map((o) => [o.id, o.label, o.price])).toEqual([
      ['alpha', 'Kiln API · alpha', '5 credits'],
      ['beta', 'Kiln API · beta', '15 credits'],
      ['gamma', 'Kiln API · gamma', 'price not listed'],
      ['fal/fal-ai/trellis', 'fal · TRELLIS', '$0.02'],
    ]);
    expect(offers.at(-1)?.vendor).toBe(TRELLIS);
    expect(offers[0]?.vendor).toBeNull();
  });

  it("never offers the entry's own provider, and only models that take its input", () => {
    const views = { model: 'fal/fal-ai/trellis/multi', images: [photo, photo], prompt: null };
    expect(offersFor(views, SPEC, PROVIDERS).map((o) => o.id)).toEqual([
      'alpha-multiview',
      'beta-multiview',
      'meshy/meshy-6',
    ]);
    const prompt = { model: 'beta-text', images: [], prompt: 'a cup' };
    expect(offersFor(prompt, SPEC, PROVIDERS).map((o) => [o.id, o.price])).toEqual([
      ['meshy/meshy-6', '30 credits'],
    ]);
  });

  it('offers nothing for an input that cannot be sent again', () => {
    expect(offersFor({ model: 'beta', images: [], prompt: null }, SPEC, PROVIDERS)).toEqual([]);
  });
});

describe('anotherModel', () => {
  it('is the next spec model for the same kind of input, wrapping round', () => {
    expect(anotherModel('alpha', null, SPEC)).toBe('beta');
    expect(anotherModel('beta', null, SPEC)).toBe('gamma');
    expect(anotherModel('gamma', null, SPEC)).toBe('alpha');
    expect(anotherModel('alpha-multiview', null, SPEC)).toBe('beta-multiview');
  });

  it('is the same model when it is the only one for its input, or unknown', () => {
    expect(anotherModel('beta-text', null, SPEC)).toBe('beta-text');
    expect(anotherModel('omega', null, SPEC)).toBe('omega');
    // A provider's model while the providers' lists have not come: kept, not a spec model.
    expect(anotherModel('meshy/meshy-6', 'image', SPEC, [])).toBe('meshy/meshy-6');
  });

  it("goes on to a connected provider's models of the same input, from a provider's model too", () => {
    expect(anotherModel('gamma', 'image', SPEC, PROVIDERS)).toBe('meshy/meshy-6');
    expect(anotherModel('meshy/meshy-6', 'image', SPEC, PROVIDERS)).toBe('fal/fal-ai/trellis');
    expect(anotherModel('fal/fal-ai/trellis', 'image', SPEC, PROVIDERS)).toBe('alpha');
    expect(anotherModel('meshy/meshy-6', 'text', SPEC, PROVIDERS)).toBe('beta-text');
  });
});

describe('requestKind', () => {
  it('reads the input a create body sends', () => {
    expect(requestKind({ image_url: 'u' })).toBe('image');
    expect(requestKind({ image_urls: ['u', 'v'] })).toBe('multiview');
    expect(requestKind({ prompt: 'a cup' })).toBe('text');
  });
});
