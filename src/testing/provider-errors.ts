// Tests only: what a provider adapter's call rejects with, which must be a ProviderError.
import { ProviderError } from '../providers/types.ts';
import { rejectionOf } from './fetch-script.ts';

export async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await rejectionOf(promise);
  if (!(err instanceof ProviderError))
    throw new Error(`expected a ProviderError, got ${String(err)}`, { cause: err });
  return err;
}
