import type { Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { GeneratorInputError, promptToGlb } from '../index.ts';
import { buildPromptModel, planPrompt, TEMPLATE_NAMES } from './prompt-to-glb.ts';
import { linearFinish, COLOUR_WORDS, MATERIAL_WORDS, MATERIALS } from './finish.ts';
import { signedVolume } from './geometry/index.ts';
import { nounTable, TEMPLATES } from './templates.ts';
import { inspectGlb, problems, windingAgreement } from '../../testing/generator.ts';

interface PrimitiveArrays {
  positions: ArrayLike<number>;
  indices: ArrayLike<number>;
}

function primitiveArrays(doc: Document): PrimitiveArrays[] {
  return doc
    .getRoot()
    .listMeshes()
    .flatMap((m) => m.listPrimitives())
    .map((prim) => ({
      positions: prim.getAttribute('POSITION')!.getArray()!,
      indices: prim.getIndices()!.getArray()!,
    }));
}

/**
 * Directed edges (between vertices welded by position) without a matching reverse edge: zero
 * when every primitive is a union of closed, consistently wound meshes.
 */
function openEdges({ positions, indices }: PrimitiveArrays): number {
  const ids = new Map<string, number>();
  const id = (v: number): number => {
    const key = `${positions[v * 3]},${positions[v * 3 + 1]},${positions[v * 3 + 2]}`;
    let n = ids.get(key);
    if (n === undefined) ids.set(key, (n = ids.size));
    return n;
  };
  const edges = new Map<string, number>();
  for (let t = 0; t < indices.length; t += 3) {
    const vs = [id(indices[t]!), id(indices[t + 1]!), id(indices[t + 2]!)];
    for (let k = 0; k < 3; k++) {
      const [a, b] = [vs[k]!, vs[(k + 1) % 3]!];
      edges.set(`${a},${b}`, (edges.get(`${a},${b}`) ?? 0) + 1);
      edges.set(`${b},${a}`, (edges.get(`${b},${a}`) ?? 0) - 1);
    }
  }
  let open = 0;
  for (const count of edges.values()) if (count !== 0) open++;
  return open;
}

/** Smallest triangle area over a primitive. */
function smallestArea({ positions: p, indices }: PrimitiveArrays): number {
  let smallest = Infinity;
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t]! * 3, indices[t + 1]! * 3, indices[t + 2]! * 3];
    const u = [p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!];
    const v = [p[c]! - p[a]!, p[c + 1]! - p[a + 1]!, p[c + 2]! - p[a + 2]!];
    const area =
      Math.hypot(
        u[1]! * v[2]! - u[2]! * v[1]!,
        u[2]! * v[0]! - u[0]! * v[2]!,
        u[0]! * v[1]! - u[1]! * v[0]!,
      ) / 2;
    smallest = Math.min(smallest, area);
  }
  return smallest;
}

/** Finds prompts without a known noun whose abstract forms cover every family. */
function abstractPrompts(): string[] {
  const byFamily = new Map<string, string>();
  for (let i = 0; byFamily.size < 4 && i < 200; i++) {
    const prompt = `an unnamed thing number ${i}`;
    const plan = planPrompt(prompt);
    if (!byFamily.has(plan.variant!)) byFamily.set(plan.variant!, prompt);
  }
  return [...byFamily.values()];
}

/** One prompt per template, plus variants, proportions and abstract forms. */
const SAMPLES: string[] = [
  ...TEMPLATE_NAMES.map((name) => `a ${name}`),
  'a wooden armchair',
  'a tall pine',
  'a christmas tree',
  'an oak tree',
  'a table lamp',
  'a red pickup truck',
  'a yellow school bus',
  'a dagger',
  'the planet saturn',
  'a stone pyramid',
  'a bagel',
  'a wide short vase',
  ...abstractPrompts(),
];

describe('promptToGlb', () => {
  it.each(SAMPLES)('makes a valid grounded solid for %j', async (prompt) => {
    const glb = await inspectGlb(await promptToGlb(prompt));
    expect(glb.magic).toBe('glTF');
    expect(glb.version).toBe(2);
    expect(glb.report.issues.numErrors, problems(glb.report).join('\n')).toBe(0);
    expect(glb.report.issues.numWarnings, problems(glb.report).join('\n')).toBe(0);
    const infos = glb.report.issues.messages.filter((m) => /DEGENERATE|UNUSED/.test(m.code));
    expect(infos.map((m) => m.code)).toEqual([]);
    expect(glb.doc.getRoot().listNodes()).toHaveLength(1);
    expect(glb.doc.getRoot().listMeshes()).toHaveLength(1);

    // Y-up metres, on the ground, centred, largest dimension about 1 m.
    const size = [0, 1, 2].map((k) => glb.max[k]! - glb.min[k]!);
    expect(Math.abs(glb.min[1])).toBeLessThan(1e-3);
    expect(Math.abs(glb.min[0] + glb.max[0])).toBeLessThan(1e-3);
    expect(Math.abs(glb.min[2] + glb.max[2])).toBeLessThan(1e-3);
    expect(Math.max(...size)).toBeGreaterThanOrEqual(0.8);
    expect(Math.max(...size)).toBeLessThanOrEqual(1.6);
    expect(size[1]).toBeGreaterThanOrEqual(0.3 - 1e-6);

    // Closed, outward-facing parts.
    expect(windingAgreement(glb.doc)).toBeGreaterThanOrEqual(0.99);
    for (const prim of primitiveArrays(glb.doc)) {
      expect(signedVolume(prim.positions, prim.indices)).toBeGreaterThan(0);
      expect(openEdges(prim)).toBe(0);
      expect(smallestArea(prim)).toBeGreaterThan(1e-9);
    }
  });

  it('is deterministic: the same prompt gives the same bytes', async () => {
    for (const prompt of ['a dragon', 'a wooden chair', 'a christmas tree']) {
      const [a, b] = await Promise.all([promptToGlb(prompt), promptToGlb(prompt)]);
      expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    }
    expect(planPrompt('A  Dragon ')).toEqual(planPrompt('a dragon'));
  });

  it('gives different prompts without a known noun different forms', () => {
    const prompts = ['a whisper', 'a melody', 'a shoe', 'the colour of time', 'quantum foam'];
    const shapes = prompts.map((p) => {
      const model = buildPromptModel(p);
      expect(model.plan.template).toBe('abstract');
      return Buffer.from(model.primitives[0]!.mesh.positions.buffer);
    });
    for (let i = 0; i < shapes.length; i++)
      for (let j = i + 1; j < shapes.length; j++) expect(shapes[i]!.equals(shapes[j]!)).toBe(false);
  });

  it('varies proportions with the prompt', () => {
    const aspect = (prompt: string): number => {
      const ps = buildPromptModel(prompt).primitives.flatMap((p) => Array.from(p.mesh.positions));
      const xs = ps.filter((_, i) => i % 3 === 0);
      const ys = ps.filter((_, i) => i % 3 === 1);
      return (Math.max(...ys) - Math.min(...ys)) / (Math.max(...xs) - Math.min(...xs));
    };
    // Two chairs differ; a tall chair is slimmer than a wide one (both scaled to 1 m).
    const plain = buildPromptModel('a chair').primitives[0]!.mesh.positions;
    const other = buildPromptModel('another chair').primitives[0]!.mesh.positions;
    expect(Buffer.from(plain.buffer).equals(Buffer.from(other.buffer))).toBe(false);
    expect(aspect('a tall chair')).toBeGreaterThan(aspect('a wide chair'));
  });
});

describe('planPrompt', () => {
  it.each([
    ['a wooden chair', 'chair', null],
    ['two armchairs', 'chair', 'arms'],
    ['a bar stool', 'stool', null],
    ['a dining table', 'table', null],
    ['coffee mugs', 'mug', null],
    ['a teacup', 'cup', null],
    ['a cup of tea', 'cup', null],
    ['a soup bowl', 'bowl', null],
    ['wine bottles', 'bottle', null],
    ['a flower vase', 'vase', null],
    ['three pine trees', 'tree', 'conifer'],
    ['an oak', 'tree', 'round'],
    ['a christmas tree', 'tree', 'christmas'],
    ['a little cottage', 'house', null],
    ['a red sports car', 'car', null],
    ['a sedan', 'car', null],
    ['a fire truck', 'car', 'truck'],
    ['lorries', 'car', 'truck'],
    ['a bus', 'car', 'van'],
    ['a desk lamp', 'lamp', 'table'],
    ['a floor lamp', 'lamp', null],
    ['a sabre', 'sword', null],
    ['knives', 'sword', 'short'],
    ['a rocket ship', 'rocket', null],
    ['a spaceship', 'rocket', null],
    ['snowmen', 'snowman', null],
    ['a chess pawn', 'pawn', null],
    ['a cactus in a pot', 'cactus', null],
    ['cacti', 'cactus', null],
    ['a toadstool', 'mushroom', null],
    ['green apples', 'apple', null],
    ['a diamond ring', 'ring', null],
    ['a car tyre', 'car', null],
    ['a spare tire', 'wheel', null],
    ['a doughnut', 'donut', null],
    ['beach balls', 'ball', null],
    ['planet', 'ball', 'planet'],
    ['a red cube', 'cube', null],
    ['a pair of dice', 'dice', null],
    ['a wooden box', 'crate', null],
    ['boxes', 'crate', null],
    ['soda can', 'can', null],
    ['can you make a chair', 'chair', null],
    ['a pillar', 'cylinder', null],
    ['green cone', 'cone', null],
    ['egyptian pyramids', 'cone', 'pyramid'],
    ['a torus', 'torus', null],
    ['a wine barrel', 'barrel', null],
    ['a barrel', 'barrel', null],
    ['birthday candles', 'candle', null],
    ['a melody made of clouds', 'abstract', null],
  ] as const)('%j → %s', (prompt, template, variant) => {
    const plan = planPrompt(prompt);
    expect(plan.template).toBe(template);
    if (template !== 'abstract') expect(plan.variant).toBe(variant);
  });

  it('maps every listed noun and its plural to its template', () => {
    for (const [noun, match] of nounTable()) {
      expect(planPrompt(`a ${noun}`).template, noun).toBe(match.template.name);
      if (!/(s|x|sh|ch|i|en|y|fe)$/.test(noun))
        expect(planPrompt(`two ${noun}s`).template, `${noun}s`).toBe(match.template.name);
    }
    expect(TEMPLATE_NAMES.length).toBeGreaterThanOrEqual(16);
    // No noun is claimed by two templates.
    const owners = new Map<string, string>();
    for (const t of TEMPLATES) {
      for (const noun of t.nouns) {
        expect(owners.get(noun), noun).toBeUndefined();
        owners.set(noun, t.name);
      }
    }
  });

  it('takes the colour from a colour word, else from the template or the hash', () => {
    const red = planPrompt('a red cube').colour;
    expect(red[0]).toBeGreaterThan(5 * Math.max(red[1], red[2]));
    const blue = planPrompt('blue ball').colour;
    expect(blue[2]).toBeGreaterThan(5 * Math.max(blue[0], blue[1]));
    expect(planPrompt('gold ring').metallic).toBe(1);
    expect(planPrompt('a wooden chair').materialWord).toBe('wood');
    expect(planPrompt('a dark blue mug').colour[2]).toBeLessThan(blue[2]);
    expect(planPrompt('a light blue mug').colour[0]).toBeGreaterThan(blue[0]);
    // No colour word: a hashed colour for things of any colour; different prompts differ.
    const colours = new Set(
      ['a dragon', 'a spaceship', 'a vase', 'a shoe'].map((p) => planPrompt(p).colour.join()),
    );
    expect(colours.size).toBeGreaterThan(1);
    // A template default for things with a usual colour.
    expect(planPrompt('a tree').colour).toEqual(planPrompt('a pine tree').colour);
  });
});

describe('materials', () => {
  const colourOf = (prompt: string, role: string) => {
    const prim = buildPromptModel(prompt).primitives.find((p) => p.role === role);
    expect(prim, `${prompt}: ${role}`).toBeDefined();
    return prim!.material;
  };
  const linear = (word: string) =>
    linearFinish(COLOUR_WORDS[word] ?? { hex: MATERIALS[MATERIAL_WORDS[word]!]!.hex! });

  it('colours the main part and keeps the others', async () => {
    // "a red car": red body, black tyres, glass windows.
    expect(colourOf('a red car', 'body').baseColor).toEqual([...linear('red').colour, 1]);
    expect(colourOf('a red car', 'tyre').baseColor).toEqual(colourOf('a car', 'tyre').baseColor);
    const tyre = colourOf('a red car', 'tyre').baseColor!;
    expect(Math.max(tyre[0], tyre[1], tyre[2])).toBeLessThan(0.05);
    // "a wooden chair": wood frame; "a golden sword": gold blade, leather grip.
    expect(colourOf('a wooden chair', 'frame').baseColor).toEqual([...linear('wooden').colour, 1]);
    expect(colourOf('a wooden chair', 'frame').roughness).toBe(0.7);
    expect(colourOf('a golden sword', 'blade').metallic).toBe(1);
    expect(colourOf('a golden sword', 'blade').baseColor).toEqual([...linear('gold').colour, 1]);
    expect(colourOf('a golden sword', 'grip').metallic).toBe(0);
    expect(colourOf('a blue rocket', 'body').baseColor).toEqual([...linear('blue').colour, 1]);
    expect(colourOf('a blue rocket', 'accent').baseColor).not.toEqual([
      ...linear('blue').colour,
      1,
    ]);

    // In the GLB: one material per role, named after template and role.
    const glb = await inspectGlb(await promptToGlb('a red car'));
    const materials = glb.doc.getRoot().listMaterials();
    const names = materials.map((m) => m.getName());
    expect(names).toContain('car-body');
    expect(names).toContain('car-tyre');
    expect(new Set(names).size).toBe(names.length);
    const body = materials.find((m) => m.getName() === 'car-body')!;
    linear('red').colour.forEach((c, k) => expect(body.getBaseColorFactor()[k]).toBeCloseTo(c, 6));
  });

  it('uses a few materials per model and declares a finish for every role', () => {
    for (const name of TEMPLATE_NAMES) {
      const model = buildPromptModel(`a ${name}`);
      expect(model.primitives.length, name).toBeGreaterThanOrEqual(1);
      expect(model.primitives.length, name).toBeLessThanOrEqual(6);
      const template = TEMPLATES.find((t) => t.name === name)!;
      expect(Object.keys(template.finishes), name).toContain(template.main);
    }
  });
});

describe('promptToGlb input', () => {
  it('rejects an empty prompt', async () => {
    await expect(promptToGlb('')).rejects.toBeInstanceOf(GeneratorInputError);
    await expect(promptToGlb('   \n\t')).rejects.toThrow(/prompt is empty/);
  });
});
