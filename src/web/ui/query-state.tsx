import type { ReactNode } from 'react';

/** What QueryState needs of a React Query result (a query or an infinite query). */
export interface QueryLike {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  data: unknown;
  refetch: () => unknown;
}

/**
 * The loading, error and empty states every list and panel shows the same way: a polite
 * "Loading …" status; an alert with the reason and Try again when nothing could be loaded (a
 * failed refetch keeps showing the data it had); `empty` when given; otherwise `children()`.
 */
export function QueryState({
  query,
  loading,
  failed,
  className,
  empty,
  title,
  describe,
  children,
}: {
  query: QueryLike;
  /** "Loading your gallery…" */
  loading: string;
  /** "The gallery could not be loaded" (the reason follows). */
  failed: string;
  /** Classes for the error and empty cards. */
  className?: string;
  /** Shown instead of the children when set (the caller knows what empty means). */
  empty?: ReactNode;
  /** A heading for the error card (what could not be loaded). */
  title?: ReactNode;
  /** The whole sentence for an error, instead of "`failed`: its message". */
  describe?: (error: Error | null) => string;
  children: () => ReactNode;
}) {
  if (query.isPending)
    return (
      <p className="muted" role="status">
        {loading}
      </p>
    );
  if (query.isError && query.data === undefined)
    return (
      <div className={`card ${className ?? ''}`}>
        {title}
        <p className="error" role="alert">
          {describe
            ? describe(query.error)
            : `${failed}: ${query.error?.message ?? 'unknown error'}`}
        </p>
        <button type="button" onClick={() => void query.refetch()}>
          Try again
        </button>
      </div>
    );
  if (empty !== undefined && empty !== null && empty !== false)
    return <div className={`card ${className ?? ''}`}>{empty}</div>;
  return <>{children()}</>;
}
