/**
 * Thrown when an input cannot be used: bytes that are not a PNG, JPEG, WebP or GIF image,
 * a truncated or corrupt image, an image over the pixel limit, or an empty prompt.
 * The message is a sentence that can be shown to a user as is.
 */
export class GeneratorInputError extends Error {
  override readonly name = 'GeneratorInputError';
  /** For multi-image input: the zero-based position of the offending image. */
  readonly imageIndex: number | undefined;
  /** What is wrong with the input (the mock turns it into an error code). */
  readonly reason: InputProblem;

  constructor(
    message: string,
    options: { cause?: unknown; imageIndex?: number; reason?: InputProblem } = {},
  ) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.imageIndex = options.imageIndex;
    this.reason = options.reason ?? 'not_an_image';
  }
}

/**
 * Why an input cannot be used: bytes that are no image (`not_an_image`); an image in which no
 * object can be told from its backdrop (`no_subject`); views that do not show one object
 * (`views_disagree`); a prompt with nothing in it (`empty_prompt`).
 */
export type InputProblem = 'not_an_image' | 'no_subject' | 'views_disagree' | 'empty_prompt';
