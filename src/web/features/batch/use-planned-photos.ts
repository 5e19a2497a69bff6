import { useCallback, useEffect, useRef, useState } from 'react';
import { checkImageFile } from '../../lib/file-check.ts';
import { MAX_BATCH } from './batch-plan.ts';

export interface PlannedPhoto {
  id: string;
  file: File;
  preview: string;
  /** null once checked and fine; a sentence when it cannot be used; undefined while checking. */
  problem: string | null | undefined;
}

let photoCounter = 0;

/** The photos of the plan: checked by content as they come, previews revoked when they go. */
export function usePlannedPhotos() {
  // The list lives in a ref that handlers change (so two quick drops both see the room left),
  // and in state that renders it.
  const list = useRef<PlannedPhoto[]>([]);
  const [photos, setPhotos] = useState<PlannedPhoto[]>([]);
  const [overflow, setOverflow] = useState<string | null>(null);
  const commit = useCallback((next: PlannedPhoto[]) => {
    list.current = next;
    setPhotos(next);
  }, []);
  useEffect(() => {
    const kept = list;
    return () => kept.current.forEach((p) => URL.revokeObjectURL(p.preview));
  }, []);

  const add = useCallback(
    (files: readonly File[]) => {
      const room = MAX_BATCH - list.current.length;
      const taken = files.slice(0, Math.max(0, room));
      const left = files.length - taken.length;
      setOverflow(
        left > 0
          ? `A batch takes at most ${MAX_BATCH} photos; ${left} ${left === 1 ? 'was' : 'were'} left out.`
          : null,
      );
      const fresh = taken.map((file) => ({
        id: `photo-${++photoCounter}`,
        file,
        preview: URL.createObjectURL(file),
        problem: undefined,
      }));
      commit([...list.current, ...fresh]);
      for (const photo of fresh)
        void checkImageFile(photo.file).then((problem) =>
          commit(list.current.map((p) => (p.id === photo.id ? { ...p, problem } : p))),
        );
    },
    [commit],
  );

  const remove = useCallback(
    (id: string) => {
      setOverflow(null);
      const gone = list.current.find((p) => p.id === id);
      if (gone) URL.revokeObjectURL(gone.preview);
      commit(list.current.filter((p) => p.id !== id));
    },
    [commit],
  );

  /** Hands the files over (the batch keeps them) and empties the plan. */
  const takeAll = useCallback((): File[] => {
    const files = list.current.map((p) => p.file);
    list.current.forEach((p) => URL.revokeObjectURL(p.preview));
    commit([]);
    return files;
  }, [commit]);

  return { photos, overflow, add, remove, takeAll };
}
