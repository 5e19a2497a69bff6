import { describe, expect, it } from 'vitest';
import { ABSTRACT_FAMILIES } from './abstract.ts';
import { COLOUR_WORDS, linearFinish, MATERIALS } from './finish.ts';
import { buildPromptModel, describePrompt, planPrompt, PROMPT_EXAMPLES } from './prompt-to-glb.ts';
import { readPrompt } from './understand.ts';

const materialOf = (prompt: string, role: string) => {
  const prim = buildPromptModel(prompt).primitives.find((p) => p.role === role);
  expect(prim, `${prompt}: no ${role}`).toBeDefined();
  return prim!.material;
};
const rgb = (hex: string) => [...linearFinish({ hex }).colour, 1];

describe('describePrompt', () => {
  it('names the object, its material and colour, for the prompts of issue 16', () => {
    expect(describePrompt('a ceramic teapot')).toEqual({
      known: true,
      object: 'teapot',
      template: 'teapot',
      colour: null,
      material: 'ceramic',
      modifiers: [],
      ignored: [],
      form: null,
      proportions: [],
      unused: [],
      opaque: [],
    });
    expect(describePrompt('a cute robot')).toMatchObject({ known: true, object: 'robot' });
    expect(describePrompt('an ancient stone bridge')).toMatchObject({
      known: true,
      object: 'bridge',
      material: 'stone',
    });
    expect(describePrompt('a green dragon')).toMatchObject({
      known: true,
      object: 'dragon',
      colour: 'green',
    });
  });

  it('says which words did not shape the model, and which see-through materials it made opaque', () => {
    expect(describePrompt('a melancholy teapot')).toMatchObject({
      object: 'teapot',
      unused: ['melancholy'],
    });
    // A second colour of the main part, a colour naming no part, a size word it does not read.
    expect(describePrompt('a red and blue car').unused).toEqual(['blue']);
    expect(describePrompt('a teapot with a green thing').unused).toEqual(['green', 'thing']);
    expect(describePrompt('a very big happy red robot').unused).toEqual(['big', 'happy']);
    // A made-up word with digits is said whole, as typed, not in pieces of letters.
    expect(describePrompt('zvmx0u6rl3 shared bowl').unused).toEqual(['zvmx0u6rl3', 'shared']);
    // Everything read is used: the noun (and another noun of the same object), colours with
    // their shade, materials, parts (even ones the object lacks, said as ignored), proportions.
    for (const prompt of [
      'a dark blue chair made of oak',
      'a glazed ceramic teapot with a bamboo handle',
      'a tall thin red vase',
      'a pine tree',
      'a teapot with wheels',
      'a 3D model of a wooden chair',
    ])
      expect(describePrompt(prompt).unused, prompt).toEqual([]);
    // A part's own colour shapes it only when the object has that part, with a finish of its own.
    expect(describePrompt('a teapot with a bamboo handle')).toMatchObject({
      modifiers: ['with bamboo handle'],
      unused: [],
    });
    expect(describePrompt('a teapot with red wheels')).toMatchObject({
      ignored: ['wheels'],
      unused: ['red'],
    });
    expect(describePrompt('a tall thin red vase').proportions).toEqual(['tall', 'thin']);
    // Glass is opaque in the model: its colour and shine only.
    expect(describePrompt('a glass dragon')).toMatchObject({
      material: 'glass',
      opaque: ['glass'],
    });
    expect(describePrompt('a dragon with crystal wings').opaque).toEqual(['crystal']);
    expect(describePrompt('a wooden chair').opaque).toEqual([]);
  });

  it('says plainly when it does not know the object, and which abstract form it makes', () => {
    for (const prompt of ['a time machine', 'the sound of rain', 'a granite melody']) {
      const d = describePrompt(prompt);
      expect(d.known, prompt).toBe(false);
      expect(d.object).toBeNull();
      expect(d.template).toBeNull();
      expect(ABSTRACT_FAMILIES).toContain(d.form);
    }
    // Colour and material still apply to the abstract form.
    expect(describePrompt('a granite melody').material).toBe('granite');
    expect(describePrompt('a purple feeling').colour).toBe('purple');
  });

  it('reports parts added, left out, and asked for where the object has none', () => {
    expect(describePrompt('a red robot with wheels and wings').modifiers).toEqual([
      'with wheels',
      'with wings',
    ]);
    expect(describePrompt('a mug without a handle').modifiers).toEqual(['without handle']);
    expect(describePrompt('a vase with handles').modifiers).toEqual(['with handle']);
    expect(describePrompt('a wingless dragon').modifiers).toEqual(['without wings']);
    expect(describePrompt('a teapot without a spout, handle or lid').modifiers).toEqual([
      'without handle',
      'without lid',
      'without spout',
    ]);
    // A teapot has no wheels: the prompt is still a teapot, and the wheels are named as ignored.
    expect(describePrompt('a teapot with wheels')).toMatchObject({
      known: true,
      modifiers: [],
      ignored: ['wheels'],
    });
    expect(describePrompt('a blob with wings').ignored).toEqual(['wings']);
    // Asking for what is there anyway changes nothing.
    expect(describePrompt('a dragon with wings').modifiers).toEqual([]);
  });

  it('understands synonyms, plurals and phrases', () => {
    const cases: [string, string, string][] = [
      ['two kettles', 'kettle', 'teapot'],
      ['rubber duckies', 'rubber ducky', 'duck'],
      ['a jack-o-lantern', 'jack o lantern', 'pumpkin'],
      ['fire extinguishers', 'fire extinguisher', 'fire extinguisher'],
      ['a tall ship', 'tall ship', 'ship'],
      ['kittens', 'kitten', 'cat'],
      ['a bike', 'bike', 'bicycle'],
      ['an android', 'android', 'robot'],
      ['a wyvern', 'wyvern', 'dragon'],
      ['an electric guitar', 'electric guitar', 'guitar'],
      ['boulders', 'boulder', 'rock'],
      ['an orange', 'orange', 'fruit'],
    ];
    for (const [prompt, object, template] of cases)
      expect(describePrompt(prompt), prompt).toMatchObject({ known: true, object, template });
  });

  it('reads a word that is both a noun and an adjective by what follows it', () => {
    expect(describePrompt('an orange cat')).toMatchObject({ object: 'cat', colour: 'orange' });
    expect(describePrompt('an orange')).toMatchObject({ object: 'orange', colour: null });
    expect(describePrompt('an oak table')).toMatchObject({ object: 'table', material: 'oak' });
    expect(describePrompt('an oak tree')).toMatchObject({ object: 'oak', material: null });
    expect(describePrompt('a stone cat')).toMatchObject({ object: 'cat', material: 'stone' });
    expect(describePrompt('a stone')).toMatchObject({ object: 'stone', material: null });
    expect(describePrompt('a tin robot')).toMatchObject({ object: 'robot', material: 'tin' });
  });

  it('offers examples that it knows', () => {
    expect(PROMPT_EXAMPLES.length).toBeGreaterThanOrEqual(4);
    for (const example of PROMPT_EXAMPLES)
      expect(describePrompt(example).known, example).toBe(true);
  });
});

describe('readPrompt', () => {
  it('keeps a "with …" clause\'s colour and material for the part it names', () => {
    const reading = readPrompt('a glazed ceramic teapot with a bamboo handle');
    expect(reading.material).toBe('ceramic');
    expect(reading.features).toEqual([
      {
        feature: 'handle',
        wanted: true,
        colour: null,
        material: 'bamboo',
        finishWords: ['bamboo'],
      },
    ]);
    const car = readPrompt('a red car with black wheels');
    expect(car.colour).toEqual({ word: 'red', shade: null });
    expect(car.features[0]).toMatchObject({ feature: 'wheels', colour: { word: 'black' } });
    // After "made of", the word belongs to the part just named.
    expect(readPrompt('a teapot with a handle made of gold').features[0]!.material).toBe('gold');
    // A clause colour with no part it can go to is dropped, not given to the object.
    const cat = readPrompt('a cat with green eyes');
    expect(cat.colour).toBeNull();
    expect(cat.features).toEqual([]);
  });

  it('reads dark and light shades and proportion words', () => {
    expect(readPrompt('a dark blue vase').colour).toEqual({ word: 'blue', shade: 'dark' });
    expect(readPrompt('a pale pink cup').colour).toEqual({ word: 'pink', shade: 'light' });
    expect(readPrompt('a tall thin robot').proportions).toEqual({ height: 1.3, width: 0.75 });
  });
});

describe('materials and colours in the model', () => {
  it('gives a material its metal and roughness, and its own colour where it has one', () => {
    const ceramic = materialOf('a ceramic teapot', 'body');
    expect(ceramic.metallic).toBe(0);
    expect(ceramic.roughness).toBe(MATERIALS.ceramic!.roughness);
    const gold = materialOf('a gold robot', 'body');
    expect(gold.metallic).toBe(1);
    expect(gold.baseColor).toEqual(rgb(MATERIALS.gold!.hex!));
    const wood = materialOf('a wooden robot', 'body');
    expect(wood.baseColor).toEqual(rgb(MATERIALS.wood!.hex!));
    expect(wood.roughness).toBe(0.7);
    expect(materialOf('a stone dragon', 'scales').baseColor).toEqual(rgb(MATERIALS.stone!.hex!));
  });

  it('colours a material with a colour word', () => {
    const glass = materialOf('a red glass vase', 'body');
    expect(glass.baseColor).toEqual(rgb(COLOUR_WORDS.red!.hex));
    expect(glass.roughness).toBe(MATERIALS.glass!.roughness);
    // A colour alone paints a metal part: no longer metallic.
    const painted = materialOf('a white robot', 'body');
    expect(painted.baseColor).toEqual(rgb(COLOUR_WORDS.white!.hex));
    expect(painted.metallic).toBe(0);
  });

  it('finishes a part the prompt names on its own, and keeps the others', () => {
    const handle = materialOf('a glazed ceramic teapot with a bamboo handle', 'handle');
    expect(handle.baseColor).toEqual(rgb(MATERIALS.bamboo!.hex!));
    const body = materialOf('a glazed ceramic teapot with a bamboo handle', 'body');
    expect(body.roughness).toBe(MATERIALS.ceramic!.roughness);
    expect(body.baseColor).not.toEqual(handle.baseColor);
    // Without its own words the handle matches the body.
    expect(materialOf('a blue teapot', 'handle').baseColor).toEqual(
      materialOf('a blue teapot', 'body').baseColor,
    );
    expect(materialOf('a red car with white wheels', 'tyre').baseColor).toEqual(
      rgb(COLOUR_WORDS.white!.hex),
    );
    expect(materialOf('a red car with white wheels', 'body').baseColor).toEqual(
      rgb(COLOUR_WORDS.red!.hex),
    );
  });

  it('makes a pumpkin orange and a green dragon green by default', () => {
    const [r, g, b] = materialOf('a pumpkin', 'skin').baseColor!;
    expect(r).toBeGreaterThan(2 * g);
    expect(g).toBeGreaterThan(b);
    expect(materialOf('a green dragon', 'scales').baseColor).toEqual(rgb(COLOUR_WORDS.green!.hex));
    // Whatever the hash, a dragon's wings follow its scales, a little darker.
    const scales = materialOf('a green dragon', 'scales').baseColor!;
    const wings = materialOf('a green dragon', 'wings').baseColor!;
    for (const k of [0, 1, 2]) expect(wings[k]).toBeCloseTo(scales[k]! * 0.55, 6);
  });
});

describe('features', () => {
  const roles = (prompt: string) => buildPromptModel(prompt).primitives.map((p) => p.role);

  it('adds and removes parts as asked', () => {
    expect(roles('a robot')).not.toContain('tyre');
    expect(roles('a robot with wheels')).toContain('tyre');
    expect(roles('a dragon')).toContain('wings');
    expect(roles('a dragon without wings')).not.toContain('wings');
    expect(roles('a cat with a hat')).toContain('hat');
    expect(roles('a teapot')).toEqual(expect.arrayContaining(['handle', 'lid']));
    expect(roles('a teapot without a handle')).not.toContain('handle');
    expect(roles('a car without wheels')).not.toContain('tyre');
    expect(roles('a bicycle with a basket')).toContain('basket');
    expect(roles('a pumpkin')).not.toContain('carving');
    expect(roles('a pumpkin with a face')).toContain('carving');
    expect(planPrompt('a pumpkin with a face').added).toEqual(['face']);
  });

  it('keeps the same prompt the same model, and a changed part a changed model', () => {
    const positions = (prompt: string) =>
      Buffer.concat(
        buildPromptModel(prompt).primitives.map((p) => Buffer.from(p.mesh.positions.buffer)),
      );
    expect(positions('a robot').equals(positions('a robot'))).toBe(true);
    expect(positions('a robot').equals(positions('a robot with wheels'))).toBe(false);
  });
});
