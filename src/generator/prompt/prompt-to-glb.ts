import { GeneratorInputError } from '../core/errors.ts';
import type { GenerateHooks } from '../core/hooks.ts';
import { writeGlb, type MaterialSpec, type PrimitiveSpec } from '../core/glb.ts';
import { abstractForm, ABSTRACT_FAMILIES } from './abstract.ts';
import {
  COLOUR_WORDS,
  fnv1a,
  hashedFinish,
  linearFinish,
  seededRandom,
  shade,
  type LinearFinish,
} from './finish.ts';
import { bounds, merge, toMesh, transform, type Solid } from './geometry.ts';
import type { Part, RoleFinish, Template } from './template.ts';
import { findNoun, singulars, TEMPLATES } from './templates.ts';

/** Names of the object templates (see `src/generator/prompt/`). */
export const TEMPLATE_NAMES: readonly string[] = TEMPLATES.map((t) => t.name);

/** Largest dimension of every model, in metres. */
export const MODEL_SIZE = 1;
/** Lowest height of a model (flat things such as a torus are stretched up to it), in metres. */
export const MIN_HEIGHT = 0.3;

/** Words that stretch the model before it is scaled to size, by axis (height or width). */
const PROPORTION_WORDS: Record<string, { axis: 'height' | 'width'; factor: number }> = {
  tall: { axis: 'height', factor: 1.3 },
  high: { axis: 'height', factor: 1.3 },
  short: { axis: 'height', factor: 0.75 },
  low: { axis: 'height', factor: 0.75 },
  squat: { axis: 'height', factor: 0.75 },
  wide: { axis: 'width', factor: 1.3 },
  broad: { axis: 'width', factor: 1.3 },
  fat: { axis: 'width', factor: 1.3 },
  chunky: { axis: 'width', factor: 1.3 },
  thin: { axis: 'width', factor: 0.75 },
  slim: { axis: 'width', factor: 0.75 },
  narrow: { axis: 'width', factor: 0.75 },
  skinny: { axis: 'width', factor: 0.75 },
  slender: { axis: 'width', factor: 0.75 },
};

export interface PromptPlan {
  /** The template the prompt's first known noun picks (one of TEMPLATE_NAMES), or 'abstract'. */
  template: string;
  /** The template's variant (e.g. 'conifer' for "pine"), the abstract form's family, or null. */
  variant: string | null;
  /** The noun (or two-word phrase) that picked the template, or null. */
  noun: string | null;
  /** The first colour/finish word ("red", "wooden", "gold"), or null. */
  colourWord: string | null;
  /** Linear RGB of the main part (the colour word's, else the template's default or a hashed hue). */
  colour: [number, number, number];
  metallic: number;
  roughness: number;
  /** Stretch factors from words such as "tall" or "wide" (1 = as designed). */
  proportions: { height: number; width: number };
  /** FNV-1a hash of the normalised prompt; seeds every random choice. */
  seed: number;
  /** 0..1, derived from the seed. */
  variation: number;
}

/** Lower-case, trimmed, single-spaced: prompts differing only in case or spacing are the same. */
function normalise(prompt: string): string {
  return prompt.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** The default finish of a role, resolving palettes and hashed colours from the prompt's hash. */
function resolveFinish(finish: RoleFinish, normalised: string, role: string): LinearFinish {
  if (finish === 'hashed') return hashedFinish(fnv1a(normalised));
  if ('hex' in finish) return linearFinish(finish);
  return linearFinish(finish[fnv1a(`${normalised}|${role}`) % finish.length]!);
}

/**
 * Reads a prompt: the first noun that names a template (plurals and synonyms included; two-word
 * names such as "table lamp" first), the first colour word (optionally after "dark" or
 * "light"/"pale"), and proportion words ("tall", "short", "wide", "thin"). A prompt without a
 * known noun gets an abstract form whose family comes from the hash.
 */
export function planPrompt(prompt: string): PromptPlan {
  const normalised = normalise(prompt);
  const seed = fnv1a(normalised);
  const words = normalised.match(/[a-z]+/g) ?? [];
  const match = findNoun(words);

  let colourWord: string | null = null;
  let finish: LinearFinish | undefined;
  const proportions = { height: 1, width: 1 };
  const seen = new Set<string>();
  for (const [i, word] of words.entries()) {
    if (!finish) {
      const hit = singulars(word).find((w) => Object.hasOwn(COLOUR_WORDS, w));
      if (hit) {
        colourWord = hit;
        finish = linearFinish(COLOUR_WORDS[hit]!);
        const before = words[i - 1];
        if (before === 'dark') finish = shade(finish, 'dark');
        if (before === 'light' || before === 'pale') finish = shade(finish, 'light');
      }
    }
    const stretch = Object.hasOwn(PROPORTION_WORDS, word) ? PROPORTION_WORDS[word] : undefined;
    if (stretch && !seen.has(stretch.axis)) {
      seen.add(stretch.axis);
      proportions[stretch.axis] = stretch.factor;
    }
  }

  const template = match?.template;
  finish ??= template
    ? resolveFinish(template.finishes[template.main]!, normalised, template.main)
    : hashedFinish(seed);
  return {
    template: template?.name ?? 'abstract',
    variant: template
      ? match!.variant
      : ABSTRACT_FAMILIES[Math.floor(seededRandom(seed)() * ABSTRACT_FAMILIES.length)]!,
    noun: match?.noun ?? null,
    colourWord,
    colour: finish.colour,
    metallic: finish.metallic,
    roughness: finish.roughness,
    proportions,
    seed,
    variation: ((seed >>> 20) % 1000) / 999,
  };
}

/**
 * Scales the parts uniformly so the largest dimension is MODEL_SIZE (after stretching by the
 * plan's proportions, and stretching up anything lower than MIN_HEIGHT), stands them on y = 0
 * and centres them on x/z = 0.
 */
function fit(parts: readonly Part[], proportions: PromptPlan['proportions']): Part[] {
  const { min, max } = bounds(parts.map((p) => p.solid));
  const size = [0, 1, 2].map((k) => max[k]! - min[k]!);
  const stretch = [proportions.width, proportions.height, proportions.width];
  const s = MODEL_SIZE / Math.max(...size.map((d, k) => d * stretch[k]!));
  const L = stretch.map((f) => f * s);
  L[1] = Math.max(L[1]!, MIN_HEIGHT / size[1]!);
  const [sx, sy, sz] = L as [number, number, number];
  const t: [number, number, number] = [
    -sx * ((min[0] + max[0]) / 2),
    -sy * min[1],
    -sz * ((min[2] + max[2]) / 2),
  ];
  return parts.map(({ role, solid }) => ({
    role,
    solid: transform(solid, [sx, 0, 0, 0, sy, 0, 0, 0, sz], t),
  }));
}

/** A model: parts grouped by role into one primitive each, with a material per role. */
export interface PromptModel {
  plan: PromptPlan;
  name: string;
  primitives: (PrimitiveSpec & { role: string })[];
}

/** Builds the model a plan describes (no I/O); `promptToGlb` writes it as GLB. */
export function buildPromptModel(prompt: string): PromptModel {
  const plan = planPrompt(prompt);
  const normalised = normalise(prompt);
  const random = seededRandom(plan.seed);
  const template: Template | undefined = TEMPLATES.find((t) => t.name === plan.template);
  const main: LinearFinish = {
    colour: plan.colour,
    metallic: plan.metallic,
    roughness: plan.roughness,
  };
  let parts: Part[];
  if (template) {
    parts = template.build({ random, variant: plan.variant });
  } else {
    parts = abstractForm(random).solids.map((solid) => ({ role: 'form', solid }));
  }
  const roles = new Map<string, Solid[]>();
  for (const { role, solid } of fit(parts, plan.proportions)) {
    const list = roles.get(role);
    if (list) list.push(solid);
    else roles.set(role, [solid]);
  }
  const primitives = [...roles].map(([role, solids]) => {
    let finish = main;
    if (template && role !== template.main) {
      const spec = template.finishes[role];
      if (!spec) throw new Error(`Template ${template.name} has no finish for ${role}`);
      finish = resolveFinish(spec, normalised, role);
    }
    const material: MaterialSpec = {
      name: `${plan.template}-${role}`,
      baseColor: [...finish.colour, 1],
      metallic: finish.metallic,
      roughness: finish.roughness,
    };
    return { role, mesh: toMesh(merge(solids)), material };
  });
  return { plan, name: `kiln-${plan.template}`, primitives };
}

/**
 * Turns a text prompt into a procedural object as GLB bytes: one mesh (one node) with a
 * primitive per material, Y-up, in metres, standing on y = 0, centred on x/z, its largest
 * dimension MODEL_SIZE (1 m).
 *
 * - The first noun naming a template picks it (mug, cup, bowl, bottle, vase, barrel, candle,
 *   can, chair, stool, table, lamp, tree, house, snowman, cactus, mushroom, apple, car, sword,
 *   rocket, pawn, wheel, ring, donut, ball, cube, dice, crate, cylinder, cone, torus; plurals
 *   and synonyms such as "armchair", "sedan", "pine", "sabre" included).
 * - The first colour word ("red", "wooden", "gold", "dark blue"…) colours the template's main
 *   part (a car's body, a sword's blade); other parts keep their default finishes.
 * - "tall", "short", "wide", "thin" stretch the proportions.
 * - Otherwise the prompt gets a deterministic abstract form (blob, spindle, twisted column or
 *   crystal cluster) seeded from its hash.
 *
 * Proportions vary slightly with a hash of the normalised prompt, so the same prompt always
 * gives the same bytes.
 *
 * @throws GeneratorInputError when the prompt is empty.
 */
export async function promptToGlb(prompt: string, hooks: GenerateHooks = {}): Promise<Uint8Array> {
  if (typeof prompt !== 'string' || prompt.trim() === '') {
    throw new GeneratorInputError('The prompt is empty; describe the object to generate.', {
      reason: 'empty_prompt',
    });
  }
  const model = buildPromptModel(prompt);
  hooks.onPhase?.('processing');
  return writeGlb(
    model.name,
    model.primitives.map(({ mesh, material }) => ({ mesh, material })),
  );
}
