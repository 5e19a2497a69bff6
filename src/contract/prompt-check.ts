import { z } from 'zod';

/**
 * The mock's `GET /v1/mock/prompt-check?prompt=…` (not in the spec; mock mode only): what the
 * demo generator understands of a prompt, so that a studio can say before Generate, and after,
 * what will be (or was) made.
 */
export const PromptCheckSchema = z.object({
  object: z.literal('mock.prompt_check'),
  prompt: z.string().optional(),
  /** True when the demo generator has a model of the object the prompt names. */
  known: z.boolean(),
  /**
   * True when it is made from a nearby model rather than its own (a fire truck from the car,
   * a lantern from the lamp): `made_from` says which.
   */
  approximate: z.boolean().default(false),
  /** The object as the generator knows it ("kettle"), or null. */
  name: z.string().nullable(),
  /** The model it is made from ("teapot" for a kettle), or null. */
  made_from: z.string().nullable().default(null),
  colour: z.string().nullable(),
  material: z.string().nullable(),
  /** Parts added or left out as asked: "with wheels", "without handle". */
  modifiers: z.array(z.string()),
  /** Parts asked for that this object does not have (ignored when it is made). */
  ignored_modifiers: z.array(z.string()),
  /** For an unknown object: the abstract form made instead. */
  abstract_form: z.string().nullable(),
  /** Words of the prompt that do not shape the model ("melancholy"), function words aside. */
  unused_words: z.array(z.string()).default([]),
  /** See-through materials named ("glass"): the model takes their colour and shine, opaque. */
  opaque_materials: z.array(z.string()).default([]),
  /** One sentence for a person, about the model to be made. */
  message: z.string(),
  /** The same sentence about a model that was made. */
  made_message: z.string().default(''),
  /** Prompts the demo generator knows, to offer instead. */
  examples: z.array(z.string()).max(12),
});
export type PromptCheck = z.infer<typeof PromptCheckSchema>;
