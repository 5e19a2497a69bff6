/** All prompt templates, and finding the first noun of a prompt that names one. */
import { CREATURES } from './creatures.ts';
import { FURNITURE } from './furniture.ts';
import { HOUSEHOLD } from './household.ts';
import { LANDMARKS } from './landmarks.ts';
import { MACHINES } from './machines.ts';
import { OUTDOORS } from './outdoors.ts';
import { PRIMITIVES } from './primitives.ts';
import { PRODUCE } from './produce.ts';
import type { Template } from './template.ts';
import { THINGS } from './things.ts';
import { VESSELS } from './vessels.ts';

export const TEMPLATES: readonly Template[] = [
  ...VESSELS,
  ...FURNITURE,
  ...OUTDOORS,
  ...THINGS,
  ...HOUSEHOLD,
  ...CREATURES,
  ...PRODUCE,
  ...MACHINES,
  ...LANDMARKS,
  ...PRIMITIVES,
];

export interface NounMatch {
  template: Template;
  /** The noun (or two-word phrase) as listed by the template. */
  noun: string;
  variant: string | null;
}

/** Noun (singular, one or two words) → template; the first template listing a noun keeps it. */
const NOUNS = new Map<string, NounMatch>();
for (const template of TEMPLATES) {
  for (const noun of [...template.nouns, ...Object.keys(template.variants ?? {})]) {
    if (!NOUNS.has(noun))
      NOUNS.set(noun, { template, noun, variant: template.variants?.[noun] ?? null });
  }
}

/** Every noun and the template it picks (for documentation and tests). */
export function nounTable(): ReadonlyMap<string, NounMatch> {
  return NOUNS;
}

/** A word and its plausible singular forms ("boxes" → box, "knives" → knife, "lorries" → lorry). */
export function singulars(word: string): string[] {
  const out = [word];
  if (word.endsWith('ies')) out.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('ves')) out.push(`${word.slice(0, -3)}f`, `${word.slice(0, -3)}fe`);
  if (word.endsWith('es')) out.push(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss')) out.push(word.slice(0, -1));
  return out;
}

/** Words after which "can" is a verb, not a tin ("can you make…"). */
const CAN_VERB_FOLLOWERS = new Set(['you', 'i', 'we', 'u', 'it', 'they', 'someone', 'somebody']);

export interface NounAt extends NounMatch {
  /** Index of the noun's first word in the prompt's words. */
  at: number;
  /** How many words it spans (1–3). */
  length: number;
}

/** Every template noun in `words`, in order (at each position the longest phrase first). */
export function nounsIn(words: readonly string[]): NounAt[] {
  const found: NounAt[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    let hit: NounAt | null = null;
    for (const length of [3, 2]) {
      if (hit || i + length > words.length) continue;
      const head = words.slice(i, i + length - 1).join(' ');
      for (const last of singulars(words[i + length - 1]!)) {
        const match = NOUNS.get(`${head} ${last}`);
        if (match) {
          hit = { ...match, at: i, length };
          break;
        }
      }
    }
    if (!hit && !(word === 'can' && next !== undefined && CAN_VERB_FOLLOWERS.has(next))) {
      for (const candidate of singulars(word)) {
        const match = NOUNS.get(candidate);
        if (match) {
          hit = { ...match, at: i, length: 1 };
          break;
        }
      }
    }
    if (hit) {
      found.push(hit);
      i += hit.length - 1;
    }
  }
  return found;
}

/**
 * The first noun in `words` that names a template (three- and two-word phrases such as "table
 * lamp" are tried before single words at each position), or null. A word that is also an
 * adjective (`isAdjective`: "orange", "oak", "stone") names the object only when no noun of
 * another template follows it: "an orange cat" is a cat, "an oak table" a table, but "an orange"
 * is a fruit and "an oak tree" an oak.
 */
export function findNoun(
  words: readonly string[],
  isAdjective: (word: string) => boolean = () => false,
): NounAt | null {
  const found = nounsIn(words);
  const adjective = (n: NounAt): boolean =>
    n.length === 1 &&
    isAdjective(words[n.at]!) &&
    found.some((m) => m.at > n.at && m.template !== n.template);
  return found.find((n) => !adjective(n)) ?? found[0] ?? null;
}
