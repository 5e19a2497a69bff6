// A mock-only endpoint, not part of the spec: what the demo generator understands of a prompt,
// so a studio can say before Generate that an unknown object becomes an abstract form.
//   GET /v1/mock/prompt-check?prompt=<text>
// No key needed (it reads no account and costs nothing). Tasks, stages and errors of the spec's
// API are untouched: a text task for an unknown object still completes, with an abstract form.
import { Hono } from 'hono';
import { ERROR_CODES, ERROR_TYPES, LIMITS, type ErrorObject } from '../contract/index.ts';
import { describePrompt, PROMPT_EXAMPLES, type PromptDescription } from '../generator/index.ts';

/** The endpoint's answer (snake_case, like the spec's objects). */
export interface PromptCheck {
  object: 'mock.prompt_check';
  prompt: string;
  /** True when the demo generator has a model of the object the prompt names. */
  known: boolean;
  /** The object as the generator knows it ("kettle"), or null. */
  name: string | null;
  /** The model it is made from ("teapot" for a kettle), or null. */
  template: string | null;
  colour: string | null;
  material: string | null;
  /** Parts added or left out as asked: "with wheels", "without handle". */
  modifiers: string[];
  /** Parts asked for that this object does not have (ignored when it is made). */
  ignored_modifiers: string[];
  /** For an unknown object: the abstract form made instead. */
  abstract_form: string | null;
  /** One sentence for a person. */
  message: string;
  /** Prompts the demo generator knows, to offer instead. */
  examples: string[];
}

function sentence(d: PromptDescription): string {
  if (!d.known) return 'Not a known object: the demo generator will make an abstract form.';
  const how = [d.colour, d.material].filter(Boolean).join(' ');
  const parts = d.modifiers.length ? `, ${d.modifiers.join(', ')}` : '';
  const ignored = d.ignored.length ? ` (it has no ${d.ignored.join(' or ')})` : '';
  return `Known object: ${how ? `${how} ` : ''}${d.object}${parts}${ignored}.`;
}

export function promptCheck(prompt: string): PromptCheck {
  const d = describePrompt(prompt);
  return {
    object: 'mock.prompt_check',
    prompt,
    known: d.known,
    name: d.object,
    template: d.template,
    colour: d.colour,
    material: d.material,
    modifiers: d.modifiers,
    ignored_modifiers: d.ignored,
    abstract_form: d.form,
    message: sentence(d),
    examples: [...PROMPT_EXAMPLES],
  };
}

/** Routes relative to the v1 base (the mock app mounts them before its key check). */
export function promptKnowledgeRoutes() {
  const app = new Hono();
  const fail = (error: ErrorObject) => Response.json({ error }, { status: 400 });
  app.get('/mock/prompt-check', (c) => {
    const prompt = c.req.query('prompt');
    if (prompt === undefined)
      return fail({
        message: 'prompt is required: send the text to check as ?prompt=….',
        type: ERROR_TYPES.invalidRequest,
        code: ERROR_CODES.missingField,
        param: 'prompt',
      });
    if (prompt.trim() === '')
      return fail({
        message: 'prompt is empty: send the text to check as ?prompt=….',
        type: ERROR_TYPES.invalidRequest,
        code: ERROR_CODES.missingField,
        param: 'prompt',
      });
    if (prompt.length > LIMITS.maxPromptLength)
      return fail({
        message: `prompt must be at most ${LIMITS.maxPromptLength} characters; got ${prompt.length}.`,
        type: ERROR_TYPES.invalidRequest,
        code: ERROR_CODES.promptTooLong,
        param: 'prompt',
      });
    return c.json(promptCheck(prompt));
  });
  return app;
}
