import type { ModelAlias } from '../contract/index.ts';
import type { Quality } from '../generator/index.ts';

/** Credits per task of each alias (the spec leaves prices open; these are the mock's). */
export const CREDITS_PER_TASK: Readonly<Record<ModelAlias, number>> = {
  alpha: 10,
  'alpha-multiview': 20,
  beta: 15,
  'beta-multiview': 25,
  gamma: 30,
  'beta-text': 10,
};

export const MODEL_DESCRIPTIONS: Readonly<Record<ModelAlias, string>> = {
  alpha: 'Fast single-image model for clean product shots.',
  'alpha-multiview': 'Fuses 2 to 4 views of one object into one model.',
  beta: 'Balanced single-image model with detailed textures.',
  'beta-multiview': 'Higher-fidelity multi-view reconstruction.',
  gamma: 'Highest-quality single-image model, slower and pricier.',
  'beta-text': 'Text-to-3D: describe an object in words.',
};

/**
 * What each tier buys from the demo generator: the price is a real trade of time for detail, as
 * the descriptions promise (alpha the fastest, gamma the finest; the multiview pair likewise).
 */
export const MODEL_QUALITY: Readonly<Record<ModelAlias, Quality>> = {
  alpha: 'draft',
  'alpha-multiview': 'draft',
  beta: 'standard',
  'beta-multiview': 'high',
  gamma: 'high',
  'beta-text': 'standard',
};
