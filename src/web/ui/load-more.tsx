import type { useLibrary } from '../api/library.ts';

/** "Load more" for the library's pages, with the error if a page failed. */
export function LoadMore({
  library,
  className,
}: {
  library: ReturnType<typeof useLibrary>;
  className: string;
}) {
  return (
    <>
      {library.isFetchNextPageError && (
        <p className="error" role="alert">
          More tasks could not be loaded: {library.error?.message}
        </p>
      )}
      {library.hasNextPage && (
        <div className={className}>
          <button
            type="button"
            onClick={() => void library.fetchNextPage()}
            disabled={library.isFetchingNextPage}
          >
            {library.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        </div>
      )}
    </>
  );
}
