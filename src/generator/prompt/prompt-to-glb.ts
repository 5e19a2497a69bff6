import { GeneratorInputError } from '../core/errors.ts';
import type { GenerateHooks } from '../core/hooks.ts';
import { writeGlb, type MaterialSpec, type PrimitiveSpec } from '../core/glb.ts';
import { abstractForm, ABSTRACT_FAMILIES } from './abstract.ts';
import {
  COLOUR_WORDS,
  fnv1a,
  hashedFinish,
  linearFinish,
  MATERIALS,
  seededRandom,
  shade,
  type Finish,
  type LinearFinish,
} from './finish.ts';
import { bounds, merge, toMesh, transform, type Solid } from './geometry/index.ts';
import { finishOf, type Part, type RoleFinish, type Template } from './template.ts';
import { TEMPLATES } from './templates.ts';
import { readPrompt, type ColourRead } from './understand.ts';

/** Names of the object templates (see `src/generator/prompt/`). */
export const TEMPLATE_NAMES: readonly string[] = TEMPLATES.map((t) => t.name);

/** Largest dimension of every model, in metres. */
const MODEL_SIZE = 1;
/** Lowest height of a model (flat things such as a torus are stretched up to it), in metres. */
const MIN_HEIGHT = 0.3;

export interface PromptPlan {
  /** The template the prompt's first known noun picks (one of TEMPLATE_NAMES), or 'abstract'. */
  template: string;
  /** The template's variant (e.g. 'conifer' for "pine"), the abstract form's family, or null. */
  variant: string | null;
  /** The noun (or phrase) that picked the template, or null. */
  noun: string | null;
  /** The main part's colour word ("red"), with "dark"/"light" before it, or null. */
  colourWord: string | null;
  /** The main part's material (canonical: "wood" for "wooden"), or null. */
  materialWord: string | null;
  /** Linear RGB of the main part (from the words, else the template's default or a hashed hue). */
  colour: [number, number, number];
  metallic: number;
  roughness: number;
  /** The template's features that are on (its defaults, less "without …", plus "with …"). */
  features: string[];
  /** Features the prompt asked for ("with wheels") that the template has and now shows. */
  added: string[];
  /** Default features the prompt left out ("without a handle"). */
  removed: string[];
  /** Features the prompt named that this object does not have (a teapot "with wheels"). */
  ignored: string[];
  /** Finishes of parts the prompt coloured on their own ("with black wheels"), by role. */
  partFinishes: Record<string, LinearFinish>;
  /** Stretch factors from words such as "tall" or "wide" (1 = as designed). */
  proportions: { height: number; width: number };
  /** FNV-1a hash of the normalised prompt; seeds every random choice. */
  seed: number;
  /** 0..1, derived from the seed. */
  variation: number;
}

/**
 * A finish with the prompt's words applied: a material sets metallic and roughness (and the
 * colour, when it has its own: wood, gold, stone); a colour word sets the colour (a colour
 * alone paints the part: not metallic, as glossy as it was unless it was metal).
 */
function withWords(
  base: LinearFinish,
  colour: ColourRead | null,
  material: string | null,
): LinearFinish {
  let finish = { ...base };
  if (material) {
    const m = MATERIALS[material]!;
    finish = {
      colour: m.hex ? linearFinish({ hex: m.hex }).colour : finish.colour,
      metallic: m.metallic,
      roughness: m.roughness,
    };
  }
  if (colour) {
    finish.colour = linearFinish(COLOUR_WORDS[colour.word]!).colour;
    if (!material && finish.metallic > 0) finish = { ...finish, metallic: 0, roughness: 0.4 };
    if (colour.shade) finish = shade(finish, colour.shade);
  }
  return finish;
}

function isPalette(finish: RoleFinish): finish is readonly Finish[] {
  return Array.isArray(finish);
}

/** The default finish of a role (palettes and hashed colours picked by the prompt's hash). */
function resolveFinish(
  finish: RoleFinish,
  normalised: string,
  role: string,
  main: LinearFinish | null,
): LinearFinish {
  if (finish === 'hashed') return hashedFinish(fnv1a(normalised));
  if (finish === 'main') {
    if (!main) throw new Error(`The main role cannot take the main finish (${role})`);
    return main;
  }
  if (isPalette(finish))
    return linearFinish(finish[fnv1a(`${normalised}|${role}`) % finish.length]!);
  if ('main' in finish) {
    if (!main) throw new Error(`The main role cannot take the main finish (${role})`);
    return { ...main, colour: main.colour.map((c) => c * finish.main) as [number, number, number] };
  }
  return linearFinish(finish);
}

/**
 * Reads a prompt (see `readPrompt`): the first noun that names a template (plurals and
 * synonyms included), the main part's colour and material, the parts asked for or left out,
 * and proportion words. A prompt without a known noun gets an abstract form whose family comes
 * from the hash.
 */
export function planPrompt(prompt: string): PromptPlan {
  const reading = readPrompt(prompt);
  const { normalised, noun } = reading;
  const seed = fnv1a(normalised);
  const template = noun?.template;
  const base = template
    ? resolveFinish(
        finishOf(template, noun.variant, template.main),
        normalised,
        template.main,
        null,
      )
    : hashedFinish(seed);
  const finish = withWords(base, reading.colour, reading.material);

  const available = template?.features ?? {};
  const features = new Set(Object.keys(available).filter((f) => available[f]));
  const added = new Set<string>();
  const removed = new Set<string>();
  const ignored = new Set<string>();
  const partFinishes: Record<string, LinearFinish> = {};
  for (const f of reading.features) {
    if (!Object.hasOwn(available, f.feature)) {
      ignored.add(f.feature);
      continue;
    }
    if (f.wanted) {
      features.add(f.feature);
      if (!available[f.feature]) added.add(f.feature);
      removed.delete(f.feature);
    } else {
      features.delete(f.feature);
      if (available[f.feature]) removed.add(f.feature);
      added.delete(f.feature);
    }
    const role = template?.featureRoles?.[f.feature];
    if (role && f.wanted && (f.colour || f.material)) {
      const spec = finishOf(template, noun!.variant, role);
      partFinishes[role] = withWords(
        role === template.main ? finish : resolveFinish(spec, normalised, role, finish),
        f.colour,
        f.material,
      );
    }
  }
  const sorted = (s: Set<string>) => [...s].sort();
  return {
    template: template?.name ?? 'abstract',
    variant: template
      ? noun.variant
      : ABSTRACT_FAMILIES[Math.floor(seededRandom(seed)() * ABSTRACT_FAMILIES.length)]!,
    noun: noun?.noun ?? null,
    colourWord: reading.colour
      ? `${reading.colour.shade ? `${reading.colour.shade} ` : ''}${reading.colour.word}`
      : null,
    materialWord: reading.material,
    colour: finish.colour,
    metallic: finish.metallic,
    roughness: finish.roughness,
    features: sorted(features),
    added: sorted(added),
    removed: sorted(removed),
    ignored: sorted(ignored),
    partFinishes,
    proportions: reading.proportions,
    seed,
    variation: ((seed >>> 20) % 1000) / 999,
  };
}

/** What the generator understands of a prompt, in plain fields (for people and the mock). */
export interface PromptDescription {
  /** True when the prompt names an object the generator has a model for. */
  known: boolean;
  /** The object, as the generator knows it ("kettle", "rubber duck", "orange"), or null. */
  object: string | null;
  /** The model it is made from (a template: "teapot" for a kettle, "fruit" for an orange). */
  template: string | null;
  /** The main part's colour as read ("red", "dark blue"), or null. */
  colour: string | null;
  /** The main part's material ("ceramic", "wood"), or null. */
  material: string | null;
  /** Parts added or left out as asked: "with wheels", "without handle". */
  modifiers: string[];
  /** Parts asked for or left out that this object does not have (or the abstract form ignores). */
  ignored: string[];
  /** For an unknown object: the abstract form made instead (blob, spindle, twist, crystals). */
  form: string | null;
  /** Words that stretched its proportions ("tall", "thin"). */
  proportions: string[];
  /**
   * Words of the prompt that did not shape the model ("melancholy" in "a melancholy teapot"),
   * each once, in order; function words ("a", "with") are not listed.
   */
  unused: string[];
  /**
   * See-through materials named ("glass"): the model takes their colour and shine only, as
   * every model is opaque.
   */
  opaque: string[];
}

/** Prompts that show what the demo generator knows (for people whose prompt it does not). */
export const PROMPT_EXAMPLES: readonly string[] = [
  'a ceramic teapot',
  'a red robot with wheels',
  'a green dragon',
  'a wooden chair',
  'a sailing ship',
  'a pumpkin',
];

/** What the generator will make of a prompt, without making it. */
export function describePrompt(prompt: string): PromptDescription {
  const plan = planPrompt(prompt);
  const reading = readPrompt(prompt);
  const known = plan.template !== 'abstract';
  const template = TEMPLATES.find((t) => t.name === plan.template);
  // A part's own colour or material is applied only to a part the model has and shows, with a
  // role of its own (planPrompt's rule); otherwise its words did not shape the model.
  const finished = (f: (typeof reading.features)[number]) =>
    f.wanted && plan.features.includes(f.feature) && Boolean(template?.featureRoles?.[f.feature]);
  // Parts added, or given their own finish ("with a bamboo handle"), by feature.
  const withParts = new Map<string, string>(plan.added.map((f) => [f, `with ${f}`]));
  for (const f of reading.features)
    if (finished(f) && f.finishWords.length)
      withParts.set(f.feature, `with ${f.finishWords.join(' ')} ${f.feature}`);
  return {
    known,
    object: plan.noun,
    template: known ? plan.template : null,
    colour: plan.colourWord,
    material: plan.materialWord,
    modifiers: [
      ...[...withParts].sort(([a], [b]) => a.localeCompare(b)).map(([, said]) => said),
      ...plan.removed.map((f) => `without ${f}`),
    ],
    ignored: plan.ignored,
    form: known ? null : plan.variant,
    proportions: reading.stretchWords,
    unused: [
      ...new Set([
        ...reading.unread,
        ...reading.features.filter((f) => !finished(f)).flatMap((f) => f.finishWords),
      ]),
    ],
    opaque: [
      ...new Set(
        [reading.material, ...reading.features.filter(finished).map((f) => f.material)].filter(
          (m): m is string => m !== null && MATERIALS[m]?.clear === true,
        ),
      ),
    ],
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
  const normalised = readPrompt(prompt).normalised;
  const random = seededRandom(plan.seed);
  const template: Template | undefined = TEMPLATES.find((t) => t.name === plan.template);
  const main: LinearFinish = {
    colour: plan.colour,
    metallic: plan.metallic,
    roughness: plan.roughness,
  };
  let parts: Part[];
  if (template) {
    parts = template.build({ random, variant: plan.variant, features: new Set(plan.features) });
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
    let finish = plan.partFinishes[role] ?? main;
    if (template && role !== template.main && !plan.partFinishes[role]) {
      finish = resolveFinish(finishOf(template, plan.variant, role), normalised, role, main);
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
 * - The first noun naming a template picks it (47 templates, from mug, chair and car to teapot,
 *   robot, dragon, bicycle and sailing ship; plurals, synonyms and phrases such as "kettle",
 *   "rubber duck" or "jack-o-lantern" included); see `describePrompt` for what was understood.
 * - Material words ("ceramic", "wooden", "gold", "glass") set the main part's metallic and
 *   roughness, and its colour when the material has one; colour words ("red", "dark blue")
 *   colour it (a car's body, a sword's blade); other parts keep their default finishes.
 * - "with …" adds parts the object can have ("with wheels", "with wings"), "without …" leaves
 *   default parts out, and colour or material words there finish that part ("with a bamboo
 *   handle"); parts the object cannot have are ignored.
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
