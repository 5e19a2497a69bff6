import { describe, expect, it } from 'vitest';
import { GeneratorInputError, promptToGlb } from './index.ts';
import { planPrompt } from './prompt-to-glb.ts';
import { inspectGlb, problems, windingAgreement } from './test-support.ts';

describe('promptToGlb', () => {
  const prompts = [
    'a red cube',
    'a wooden box',
    'blue ball',
    'a tin can',
    'green cone',
    'golden ring',
    'a ceramic vase with a narrow neck',
    'a dragon made of clouds',
    '  Spaceship!  ',
  ];

  it.each(prompts)('makes a valid solid for %j', async (prompt) => {
    const glb = await inspectGlb(await promptToGlb(prompt));
    expect(glb.magic).toBe('glTF');
    expect(glb.version).toBe(2);
    expect(glb.report.issues.numErrors, problems(glb.report).join('\n')).toBe(0);
    expect(glb.report.issues.numWarnings, problems(glb.report).join('\n')).toBe(0);
    expect(glb.triangles).toBeGreaterThan(0);
    const prims = glb.doc
      .getRoot()
      .listMeshes()
      .flatMap((m) => m.listPrimitives());
    expect(prims.length).toBeGreaterThan(0);
    for (const prim of prims) expect(prim.getAttribute('NORMAL')).not.toBeNull();
    expect(windingAgreement(glb.doc)).toBe(1);
    // Fits a unit box around the origin.
    for (let k = 0; k < 3; k++) {
      expect(glb.min[k]).toBeGreaterThanOrEqual(-0.5001);
      expect(glb.max[k]).toBeLessThanOrEqual(0.5001);
    }
  });

  it('is deterministic for the same prompt', async () => {
    const [a, b] = await Promise.all([promptToGlb('a dragon'), promptToGlb('a dragon')]);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect(planPrompt('A  Dragon ')).toEqual(planPrompt('a dragon'));
  });

  it('picks the shape from words in the prompt', () => {
    expect(planPrompt('a red cube').shape).toBe('cube');
    expect(planPrompt('a cardboard box').shape).toBe('box');
    expect(planPrompt('beach balls').shape).toBe('sphere');
    expect(planPrompt('soda can').shape).toBe('cylinder');
    expect(planPrompt('pine tree').shape).toBe('cone');
    expect(planPrompt('a diamond ring').shape).toBe('torus');
    expect(planPrompt('flower vase').shape).toBe('vase');
  });

  it('takes the colour from a colour word, else from the hash', async () => {
    const red = planPrompt('a red cube').colour;
    expect(red[0]).toBeGreaterThan(5 * Math.max(red[1], red[2]));
    const blue = planPrompt('blue ball').colour;
    expect(blue[2]).toBeGreaterThan(5 * Math.max(blue[0], blue[1]));
    const gold = planPrompt('gold ring');
    expect(gold.metallic).toBe(1);

    const glb = await inspectGlb(await promptToGlb('a red cube'));
    const material = glb.doc.getRoot().listMaterials()[0]!;
    const factor = material.getBaseColorFactor();
    red.forEach((c, k) => expect(factor[k]).toBeCloseTo(c, 6));
    expect(material.getMetallicFactor()).toBe(0);

    // No colour word: a colour from the hash, different prompts usually differ.
    const colours = new Set(
      ['a dragon', 'a spaceship', 'a lamp', 'a shoe'].map((p) => planPrompt(p).colour.join()),
    );
    expect(colours.size).toBeGreaterThan(1);
  });

  it('rejects an empty prompt', async () => {
    await expect(promptToGlb('   ')).rejects.toBeInstanceOf(GeneratorInputError);
  });
});
