/**
 * Thrown when an input cannot be used: bytes that are not a PNG, JPEG, WebP or GIF image,
 * a truncated or corrupt image, an image over the pixel limit, or an empty prompt.
 * The message is a sentence that can be shown to a user as is.
 */
export class GeneratorInputError extends Error {
  override readonly name = 'GeneratorInputError';
  /** For multi-image input: the zero-based position of the offending image. */
  readonly imageIndex: number | undefined;

  constructor(message: string, options: { cause?: unknown; imageIndex?: number } = {}) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.imageIndex = options.imageIndex;
  }
}
