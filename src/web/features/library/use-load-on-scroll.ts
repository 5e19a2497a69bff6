import { useEffect, useRef } from 'react';

/**
 * Calls `load` when the returned element comes within `margin` of the viewport (an
 * IntersectionObserver on a sentinel below the list). The observer is made again whenever
 * `generation` changes (a page arrived), so a sentinel still in view after a short page asks for
 * the next one at once. Without IntersectionObserver, nothing happens: Load more is there.
 */
export function useLoadOnScroll<T extends Element>(
  load: () => void,
  {
    enabled,
    generation,
    margin = '1200px',
  }: { enabled: boolean; generation: unknown; margin?: string },
) {
  const ref = useRef<T>(null);
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });
  useEffect(() => {
    const target = ref.current;
    if (!enabled || !target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (records) => {
        if (records.some((r) => r.isIntersecting)) loadRef.current();
      },
      { rootMargin: `${margin} 0px` },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [enabled, generation, margin]);
  return ref;
}
