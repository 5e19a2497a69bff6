/** All prompt templates, and finding the first noun of a prompt that names one. */
import { FURNITURE } from './furniture.ts';
import { OUTDOORS } from './outdoors.ts';
import { PRIMITIVES } from './primitives.ts';
import type { Template } from './template.ts';
import { THINGS } from './things.ts';
import { VESSELS } from './vessels.ts';

export const TEMPLATES: readonly Template[] = [
  ...VESSELS,
  ...FURNITURE,
  ...OUTDOORS,
  ...THINGS,
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

/**
 * The first noun in `words` that names a template (two-word phrases such as "table lamp" are
 * tried before single words at each position), or null.
 */
export function findNoun(words: readonly string[]): NounMatch | null {
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    if (next !== undefined) {
      for (const second of singulars(next)) {
        const match = NOUNS.get(`${word} ${second}`);
        if (match) return match;
      }
    }
    if (word === 'can' && next !== undefined && CAN_VERB_FOLLOWERS.has(next)) continue;
    for (const candidate of singulars(word)) {
      const match = NOUNS.get(candidate);
      if (match) return match;
    }
  }
  return null;
}
