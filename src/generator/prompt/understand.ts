/**
 * Reading a prompt: which object it names, its colour and material, the parts it asks for
 * ("with wheels") or leaves out ("without a handle"), and words that stretch it ("tall"). What is
 * read here is all the generator understands; `describePrompt` says it in plain fields.
 */
import { COLOUR_WORDS, MATERIAL_WORDS } from './finish.ts';
import { findNoun, nounsIn, singulars, type NounAt } from './templates.ts';

/** Feature words as written → the feature's name (what templates list in `features`). */
const FEATURE_WORDS: Readonly<Record<string, string>> = {
  wheel: 'wheels',
  wheeled: 'wheels',
  castor: 'wheels',
  caster: 'wheels',
  handle: 'handle',
  handled: 'handle',
  wing: 'wings',
  winged: 'wings',
  lid: 'lid',
  lidded: 'lid',
  leg: 'legs',
  legged: 'legs',
  arm: 'arms',
  armrest: 'arms',
  hat: 'hat',
  horn: 'horns',
  horned: 'horns',
  tail: 'tail',
  sail: 'sails',
  mast: 'sails',
  flag: 'flag',
  spout: 'spout',
  candle: 'candles',
  antenna: 'antenna',
  antennae: 'antenna',
  chimney: 'chimney',
  hose: 'hose',
  basket: 'basket',
  face: 'face',
  saucer: 'saucer',
  cushion: 'cushion',
  leaf: 'leaves',
  crown: 'crown',
  scarf: 'scarf',
};

/** "wingless", "handleless": the feature left out. */
const LESS = /^([a-z]+?)less$/;

/** Words that open a clause of parts to add, or to leave out. */
const WITH_WORDS = new Set(['with', 'has', 'having', 'wearing', 'plus']);
const WITHOUT_WORDS = new Set(['without', 'no', 'sans', 'minus']);

/** Words that stretch the model before it is scaled to size, by axis (height or width). */
const PROPORTION_WORDS: Readonly<Record<string, { axis: 'height' | 'width'; factor: number }>> = {
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

/**
 * Words that carry no meaning of their own for the generator (articles, linking words, "3D
 * model"): never said to be left unused.
 */
const FUNCTION_WORDS = new Set([
  'a',
  'an',
  'the',
  'some',
  'one',
  'of',
  'and',
  'or',
  'with',
  'without',
  'no',
  'made',
  'in',
  'on',
  'at',
  'to',
  'for',
  'from',
  'by',
  'as',
  'is',
  'are',
  'its',
  'it',
  'that',
  'this',
  'which',
  'has',
  'having',
  'wearing',
  'plus',
  'sans',
  'minus',
  'very',
  'into',
  'out',
  'd',
  'model',
  'object',
  'shaped',
  'like',
  'style',
]);

/** A colour as read: the colour word, and "dark"/"light"/"pale" before it. */
export interface ColourRead {
  word: string;
  shade: 'dark' | 'light' | null;
}

/** A part the prompt asks for or leaves out, with its own colour or material if it names one. */
interface FeatureRead {
  feature: string;
  /** False for "without a handle", "wingless". */
  wanted: boolean;
  colour: ColourRead | null;
  material: string | null;
  /** The colour and material words given to this part, as written ("dark", "green", "bamboo"). */
  finishWords: string[];
}

export interface PromptReading {
  /** Lower-case, trimmed, single-spaced. */
  normalised: string;
  words: string[];
  noun: NounAt | null;
  /** The first colour word outside a "with …" clause. */
  colour: ColourRead | null;
  /** The first material word outside a "with …" clause (canonical, see MATERIALS). */
  material: string | null;
  features: FeatureRead[];
  proportions: { height: number; width: number };
  /**
   * Words the reading did not use (each once, in order): not a colour, material, part or
   * proportion it applied, nor the object's noun, nor a function word ("a", "with"). A second
   * colour of the main part, or a colour in a "with …" clause naming no part, is among them.
   */
  unread: string[];
  /** The proportion words applied ("tall", "thin"), in order. */
  stretchWords: string[];
}

/** Lower-case, trimmed, single-spaced: prompts differing only in case or spacing are the same. */
/** The run of letters and digits around the letters at `at` (`length` long), as typed. */
function typedWord(text: string, at: number, length: number): string {
  let start = at;
  let end = at + length;
  while (start > 0 && /[a-z0-9]/.test(text[start - 1] ?? '')) start--;
  while (end < text.length && /[a-z0-9]/.test(text[end] ?? '')) end++;
  return text.slice(start, end);
}

function normalise(prompt: string): string {
  return prompt.trim().toLowerCase().replace(/\s+/g, ' ');
}

function colourWordOf(word: string): string | null {
  return singulars(word).find((w) => Object.hasOwn(COLOUR_WORDS, w)) ?? null;
}

function materialOf(word: string): string | null {
  const hit = singulars(word).find((w) => Object.hasOwn(MATERIAL_WORDS, w));
  return hit ? MATERIAL_WORDS[hit]! : null;
}

function featureOf(word: string): { feature: string; wanted: boolean } | null {
  const less = LESS.exec(word);
  const [stem, wanted] = less ? [less[1]!, false] : [word, true];
  const hit = singulars(stem).find((w) => Object.hasOwn(FEATURE_WORDS, w));
  return hit ? { feature: FEATURE_WORDS[hit]!, wanted } : null;
}

/**
 * Reads a prompt. The object is the first noun naming a template (see `findNoun`); colour and
 * material words before any "with" describe the object's main part, and those inside a
 * "with …" clause the part they come before ("with black wheels", "with a bamboo handle") or,
 * after "made of", the part before them. "without"/"no" leave parts out until the next "with".
 */
export function readPrompt(prompt: string): PromptReading {
  const normalised = normalise(prompt);
  const spans = [...normalised.matchAll(/[a-z]+/g)];
  const words = spans.map((m) => m[0]);
  const noun = findNoun(words, (w) => colourWordOf(w) !== null || materialOf(w) !== null);
  const inNoun = (i: number): boolean => noun !== null && i >= noun.at && i < noun.at + noun.length;

  let colour: ColourRead | null = null;
  let material: string | null = null;
  const features: FeatureRead[] = [];
  const proportions = { height: 1, width: 1 };
  const stretched = new Set<string>();
  let clause: 'with' | 'without' | null = null;
  let pending: { colour: ColourRead | null; material: string | null } = {
    colour: null,
    material: null,
  };
  let madeOf = false;
  /** Indexes of words the reading used; a clause's colour is used once a part takes it. */
  const used = new Set<number>();
  const stretchWords: string[] = [];
  let pendingAt: number[] = [];
  const clear = () => {
    pending = { colour: null, material: null };
    pendingAt = [];
    madeOf = false;
  };

  for (const [i, word] of words.entries()) {
    if (inNoun(i)) continue;
    if (WITH_WORDS.has(word) || WITHOUT_WORDS.has(word)) {
      clause = WITH_WORDS.has(word) ? 'with' : 'without';
      clear();
      continue;
    }
    if (word === 'and') {
      clear();
      continue;
    }
    if (word === 'made' || word === 'of') {
      madeOf = true;
      continue;
    }
    const feature = featureOf(word);
    if (feature) {
      used.add(i);
      for (const at of pendingAt) used.add(at);
      features.push({
        feature: feature.feature,
        wanted: feature.wanted && clause !== 'without',
        colour: pending.colour,
        material: pending.material,
        finishWords: pendingAt.map((at) => words[at]!),
      });
      clear();
      continue;
    }
    const colourWord = colourWordOf(word);
    const materialWord = colourWord ? null : materialOf(word);
    if (colourWord || materialWord) {
      const before = words[i - 1];
      const read: ColourRead | null = colourWord
        ? {
            word: colourWord,
            shade:
              before === 'dark' ? 'dark' : before === 'light' || before === 'pale' ? 'light' : null,
          }
        : null;
      // After "made of", a clause's word describes the part just named.
      const last = features[features.length - 1];
      // The word, and a shade word before a colour, as used by whatever takes them.
      const at = read?.shade ? [i - 1, i] : [i];
      if (clause && madeOf && last && !last.colour && !last.material) {
        if (read) last.colour = read;
        else last.material = materialWord;
        for (const a of at) used.add(a);
        last.finishWords.push(...at.map((a) => words[a]!));
      } else if (clause) {
        if (read ? !pending.colour : !pending.material) pendingAt.push(...at);
        if (read) pending.colour ??= read;
        else pending.material ??= materialWord;
      } else if (
        read ? !colour || colour.word === read.word : !material || material === materialWord
      ) {
        // The first colour and material make the main part ("glazed ceramic" says one twice).
        if (read) colour ??= read;
        else material ??= materialWord;
        for (const a of at) used.add(a);
      }
      continue;
    }
    const stretch = Object.hasOwn(PROPORTION_WORDS, word) ? PROPORTION_WORDS[word] : undefined;
    if (stretch && !stretched.has(stretch.axis)) {
      used.add(i);
      stretchWords.push(word);
      stretched.add(stretch.axis);
      proportions[stretch.axis] = stretch.factor;
    }
  }
  // Another noun of the same object ("tree" in "a pine tree") names it too.
  for (const other of nounsIn(words))
    if (noun && other.template === noun.template)
      for (let k = other.at; k < other.at + other.length; k++) used.add(k);
  // Said as typed: a made-up word with digits ("zvmx0u6rl3") whole, not its letters' pieces.
  const unread = words.flatMap((w, i) =>
    !inNoun(i) && !used.has(i) && !FUNCTION_WORDS.has(w)
      ? [typedWord(normalised, spans[i]?.index ?? 0, w.length)]
      : [],
  );
  return {
    normalised,
    words,
    noun,
    colour,
    material,
    features,
    proportions,
    unread: [...new Set(unread)],
    stretchWords,
  };
}
