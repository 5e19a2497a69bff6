// A vendor's refusal in Kiln's error body: the status an artist's client expects and a sentence
// that names the vendor and what to do.
import { ERROR_CODES, PROVIDER_KEY_HEADER } from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { ProviderError } from '../../providers/types.ts';

export function providerApiError(label: string, err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (!(err instanceof ProviderError))
    return new ApiError(
      502,
      { code: ERROR_CODES.upstreamUnreachable, message: `${label} could not be reached.` },
      { cause: err },
    );
  const said = err.message;
  const retry = err.details.retryAfterS;
  const headers = retry !== undefined ? { 'retry-after': String(Math.ceil(retry)) } : undefined;
  switch (err.kind) {
    case 'invalid_key':
      return new ApiError(401, {
        code: ERROR_CODES.invalidApiKey,
        message: `${label} does not accept this key: ${said}`,
        param: PROVIDER_KEY_HEADER,
      });
    case 'insufficient_credits':
      return new ApiError(402, {
        code: ERROR_CODES.insufficientCredits,
        message: `Not enough ${label} credits: ${said}`,
      });
    case 'rate_limited':
    case 'too_many_tasks':
      return new ApiError(
        429,
        { code: ERROR_CODES.rateLimited, message: `${label} asks to slow down: ${said}` },
        headers ? { headers } : {},
      );
    case 'invalid_input':
      return new ApiError(400, {
        code: ERROR_CODES.invalidValue,
        message: `${label} refused the input: ${said}`,
        ...(err.details.param ? { param: err.details.param } : {}),
      });
    case 'not_found':
      return new ApiError(404, {
        code: ERROR_CODES.taskNotFound,
        message: `${label} has no such task for this key.`,
      });
    default:
      return new ApiError(
        502,
        { code: ERROR_CODES.upstreamUnreachable, message: `${label} did not answer: ${said}` },
        { cause: err, ...(headers ? { headers } : {}) },
      );
  }
}
