import type { ReactNode } from 'react';
import { describeError } from '../../lib/describe-error.ts';

/**
 * The owner's collections in a dialog, until they are read: "Loading your collections…", or why
 * they could not be with Try again (a failed refetch keeps the list it had); null once read.
 */
export function collectionsNotRead(collections: {
  isPending: boolean;
  isError: boolean;
  data: unknown;
  error: unknown;
  refetch: () => unknown;
}): ReactNode | null {
  if (collections.isPending)
    return (
      <p className="muted" role="status">
        Loading your collections…
      </p>
    );
  if (collections.isError && !collections.data)
    return (
      <div className="modal__error" role="alert">
        <p>Your collections could not be loaded: {describeError(collections.error).message}</p>
        <button type="button" className="small" onClick={() => void collections.refetch()}>
          Try again
        </button>
      </div>
    );
  return null;
}
