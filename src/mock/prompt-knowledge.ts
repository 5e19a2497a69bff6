// A mock-only endpoint, not part of the spec: what the demo generator understands of a prompt,
// so a studio can say before Generate that an unknown object becomes an abstract form.
//   GET /v1/mock/prompt-check?prompt=<text>
// No key needed (it reads no account and costs nothing). Tasks, stages and errors of the spec's
// API are untouched: a text task for an unknown object still completes, with an abstract form.
import { Hono } from 'hono';
import { ERROR_CODES, LIMITS, type PromptCheck } from '../contract/index.ts';
import { describePrompt, PROMPT_EXAMPLES, type PromptDescription } from '../generator/index.ts';
import { ApiError } from '../http/index.ts';

/** Made from a nearby model rather than its own (a truck from the car). */
const isApproximate = (d: PromptDescription) =>
  d.known && d.template !== null && d.object !== null && d.template !== d.object;

/** “a”; “a” or “b”; “a”, “b” or “c” (`and` with “and”). */
const quotedList = (words: readonly string[], and = 'or') =>
  words
    .map((w) => `“${w}”`)
    .join(', ')
    .replace(/, ([^,]*)$/, ` ${and} $1`);

/**
 * The words said not to shape the model: only of an object made from its own model (an unknown
 * or approximate one already says its object was not made as named, and the words around its
 * noun were read as part of it).
 */
const saidUnused = (d: PromptDescription) => (d.known && !isApproximate(d) ? d.unused : []);

/**
 * What the words did not do: see-through materials made opaque ("glass"), and words that did
 * not shape the model at all ("melancholy"). Empty when every word was used as written.
 */
function caveats(d: PromptDescription): string {
  const opaque = d.opaque.length
    ? ` ${quotedList(d.opaque, 'and')} ${d.opaque.length > 1 ? 'give' : 'gives'} it colour and shine only: the model is opaque, not see-through.`
    : '';
  // Only of an object made from its own model: an unknown or approximate one already says its
  // object was not made as named, and the words around that noun were read as part of it.
  const unused =
    d.known && !isApproximate(d) && d.unused.length ? ` Not used: ${quotedList(d.unused)}.` : '';
  return `${opaque}${unused}`;
}

/** One sentence about the model to be made (`made`: that was made), with what was not used. */
function sentence(d: PromptDescription, made = false): string {
  return `${mainSentence(d, made)}${caveats(d)}`;
}

function mainSentence(d: PromptDescription, made: boolean): string {
  if (!d.known)
    return made
      ? `Not a known object: the demo generator made an abstract form (${d.form ?? 'a shape'}).`
      : 'Not a known object: the demo generator will make an abstract form.';
  // Every word that shaped it, before its name: proportions, colour, material (issue 32).
  const how = [...d.proportions, d.colour, d.material].filter(Boolean).join(' ');
  const parts = d.modifiers.length ? `, ${d.modifiers.join(', ')}` : '';
  const ignored = d.ignored.length ? ` (it has no ${d.ignored.join(' or ')})` : '';
  if (isApproximate(d))
    return `Approximate: the demo generator has no model of its own for this; ${made ? 'it made' : 'it makes'} ${how ? `a ${how} ` : 'its '}${d.template}${how ? '' : ' model'}${parts}${ignored}, the closest it has.`;
  return `${made ? 'Made' : 'Known object'}: ${how ? `${how} ` : ''}${d.object}${parts}${ignored}.`;
}

export function promptCheck(prompt: string): PromptCheck {
  const d = describePrompt(prompt);
  return {
    object: 'mock.prompt_check',
    prompt,
    known: d.known,
    approximate: isApproximate(d),
    name: d.object,
    made_from: d.template,
    colour: d.colour,
    material: d.material,
    modifiers: d.modifiers,
    ignored_modifiers: d.ignored,
    abstract_form: d.form,
    unused_words: saidUnused(d),
    opaque_materials: d.opaque,
    message: sentence(d),
    made_message: sentence(d, true),
    examples: [...PROMPT_EXAMPLES],
  };
}

/** Routes relative to the v1 base (the mock app mounts them before its key check; its onError renders the 400s). */
export function promptKnowledgeRoutes() {
  const app = new Hono();
  app.get('/mock/prompt-check', (c) => {
    const prompt = c.req.query('prompt');
    if (prompt === undefined)
      throw new ApiError(400, {
        code: ERROR_CODES.missingField,
        message: 'prompt is required: send the text to check as ?prompt=….',
        param: 'prompt',
      });
    if (prompt.trim() === '')
      throw new ApiError(400, {
        code: ERROR_CODES.missingField,
        message: 'prompt is empty: send the text to check as ?prompt=….',
        param: 'prompt',
      });
    if (prompt.length > LIMITS.maxPromptLength)
      throw new ApiError(400, {
        code: ERROR_CODES.promptTooLong,
        message: `prompt must be at most ${LIMITS.maxPromptLength} characters; got ${prompt.length}.`,
        param: 'prompt',
      });
    return c.json(promptCheck(prompt));
  });
  return app;
}
