// Everyday nouns an artist types first: each names a real model (not an abstract form), and
// every model is clean glTF, watertight, edge-manifold, wound outward and the same bytes twice.
import type { Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { promptToGlb } from '../index.ts';
import { describePrompt } from './prompt-to-glb.ts';
import {
  edgeDefects,
  expectCleanModel,
  inspectGlb,
  weldedTriangles,
} from '../../testing/generator.ts';

const EVERYDAY_NOUNS = [
  'mug',
  'cup',
  'teacup',
  'bowl',
  'bottle',
  'vase',
  'jar',
  'barrel',
  'candle',
  'can',
  'chair',
  'armchair',
  'stool',
  'table',
  'desk',
  'lamp',
  'lantern',
  'tree',
  'pine tree',
  'house',
  'cottage',
  'snowman',
  'cactus',
  'mushroom',
  'apple',
  'car',
  'truck',
  'bus',
  'van',
  'sword',
  'knife',
  'rocket',
  'spaceship',
  'chess pawn',
  'wheel',
  'ring',
  'donut',
  'ball',
  'football',
  'globe',
  'cube',
  'dice',
  'box',
  'crate',
  'treasure chest',
  'cone',
  'pyramid',
  'teapot',
  'kettle',
  'robot',
  'guitar',
  'bicycle',
  'bike',
  'pineapple',
  'cat',
  'kitten',
  'dog',
  'puppy',
  'fox',
  'rubber duck',
  'duck',
  'pumpkin',
  'sailing ship',
  'boat',
  'yacht',
  'dragon',
  'fire extinguisher',
  'pillar',
  'bridge',
  'rock',
  'orange',
  'lemon',
  'pear',
  'tomato',
];

/** Prompts with materials, colours and parts asked for or left out. */
const MODIFIED = [
  'a ceramic teapot',
  'a cute robot',
  'a green dragon',
  'a glazed ceramic teapot with a bamboo handle',
  'a red robot with wheels and wings',
  'a wooden chair with wheels',
  'a flying car with wings',
  'a car without wheels',
  'a mug without a handle',
  'a cat with a hat and wings',
  'a dragon without wings',
  'a bicycle with a basket',
  'a jack-o-lantern',
  'a pirate ship',
  'a golden kettle',
  'a stone cat',
  'a red sports car with black wheels',
  'a snowman with a red hat',
  'a teapot without a spout, handle or lid',
  'an electric guitar',
  'a blue vase with handles',
  'an amphora',
];

/**
 * Directed edges (vertices welded by position over the whole model) with no reverse partner:
 * zero when every closed shell is wound consistently.
 */
function unpairedDirectedEdges(doc: Document): number {
  const balance = new Map<string, number>();
  for (const v of weldedTriangles(doc)) {
    for (let k = 0; k < 3; k++) {
      const [a, b] = [v[k]!, v[(k + 1) % 3]!];
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      balance.set(key, (balance.get(key) ?? 0) + (a < b ? 1 : -1));
    }
  }
  let unpaired = 0;
  for (const n of balance.values()) if (n !== 0) unpaired++;
  return unpaired;
}

async function expectSoundModel(prompt: string): Promise<void> {
  // How long it takes is bench/generator's to measure (prompts: tens of milliseconds).
  const bytes = await promptToGlb(prompt);
  const glb = await inspectGlb(bytes);
  expectCleanModel(glb);
  expect(edgeDefects(glb.doc), `${prompt}: edges not shared by exactly two faces`).toBe(0);
  expect(unpairedDirectedEdges(glb.doc), `${prompt}: inconsistently wound edges`).toBe(0);
  const again = await promptToGlb(prompt);
  expect(Buffer.from(again).equals(Buffer.from(bytes)), `${prompt}: not deterministic`).toBe(true);
}

describe('everyday nouns', () => {
  it('lists at least 60 different nouns', () => {
    expect(new Set(EVERYDAY_NOUNS).size).toBe(EVERYDAY_NOUNS.length);
    expect(EVERYDAY_NOUNS.length).toBeGreaterThanOrEqual(60);
  });

  it.each(EVERYDAY_NOUNS)('"a %s" is a known object with a sound model', async (noun) => {
    const description = describePrompt(`a ${noun}`);
    expect(description.known, noun).toBe(true);
    expect(description.object).not.toBeNull();
    expect(description.form).toBeNull();
    await expectSoundModel(`a ${noun}`);
  });

  it.each(MODIFIED)('%j is a known object with a sound model', async (prompt) => {
    expect(describePrompt(prompt).known, prompt).toBe(true);
    await expectSoundModel(prompt);
  });
});
