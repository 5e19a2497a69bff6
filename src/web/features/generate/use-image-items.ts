import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../../lib/describe-error.ts';
import { checkImageFile } from '../../lib/file-check.ts';
import { uploadFromUrl, uploadImage, uploadPath } from '../../api/tasks.ts';

/** One input image: a file being checked and uploaded, or a pasted URL. */
export interface ImageItem {
  id: string;
  name: string;
  /** What to show: an object URL for a file, the URL itself for a pasted link. */
  preview: string | null;
  status: 'checking' | 'uploading' | 'ready' | 'error';
  progress: number;
  /** The URL sent upstream once ready. */
  url: string | null;
  error: string | null;
}

let counter = 0;

/**
 * The images of the form. Files are checked (by content) and uploaded at once,
 * each with its own progress; whoever creates an object URL here revokes it.
 */
export function useImageItems(
  max: number,
  initial: readonly { url: string; name?: string }[] = [],
) {
  const [items, setItems] = useState<ImageItem[]>(() =>
    initial.slice(0, max).map((image) => ({
      id: `img-${++counter}`,
      name: image.name ?? image.url.split('/').pop() ?? image.url,
      preview: image.url,
      status: 'ready',
      progress: 1,
      url: image.url,
      error: null,
    })),
  );
  const controllers = useRef(new Map<string, AbortController>());
  const previews = useRef(new Map<string, string>());

  const patch = useCallback((id: string, change: Partial<ImageItem>) => {
    setItems((all) => all.map((it) => (it.id === id ? { ...it, ...change } : it)));
  }, []);

  const release = useCallback((id: string) => {
    controllers.current.get(id)?.abort();
    controllers.current.delete(id);
    const url = previews.current.get(id);
    if (url) URL.revokeObjectURL(url);
    previews.current.delete(id);
  }, []);

  useEffect(() => {
    const prev = previews.current;
    const ctrls = controllers.current;
    return () => {
      for (const c of ctrls.values()) c.abort();
      for (const u of prev.values()) URL.revokeObjectURL(u);
    };
  }, []);

  const addFiles = useCallback(
    (files: readonly File[], replace = false) => {
      const room = replace ? max : max - items.length;
      const accepted = files.slice(0, Math.max(0, room));
      if (replace) for (const it of items) release(it.id);
      const fresh: ImageItem[] = accepted.map((f) => ({
        id: `img-${++counter}`,
        name: f.name || 'pasted image',
        preview: null,
        status: 'checking',
        progress: 0,
        url: null,
        error: null,
      }));
      setItems((all) => (replace ? fresh : [...all, ...fresh]));
      accepted.forEach((file, i) => {
        const item = fresh[i];
        if (!item) return;
        void (async () => {
          const problem = await checkImageFile(file);
          if (problem) return patch(item.id, { status: 'error', error: problem });
          const preview = URL.createObjectURL(file);
          previews.current.set(item.id, preview);
          const ac = new AbortController();
          controllers.current.set(item.id, ac);
          patch(item.id, { preview, status: 'uploading' });
          try {
            const up = await uploadImage(file, {
              signal: ac.signal,
              onProgress: (p) => patch(item.id, { progress: p }),
            });
            patch(item.id, { status: 'ready', progress: 1, url: up.url });
          } catch (err) {
            if (!ac.signal.aborted)
              patch(item.id, { status: 'error', error: describeError(err).message });
          } finally {
            controllers.current.delete(item.id);
          }
        })();
      });
      return files.length - accepted.length;
    },
    [items, max, patch, release],
  );

  // A pasted address: Kiln fetches it once and keeps it like an upload (checked, previewed
  // from Kiln); an address that gives no image says why at once, before any create.
  const addUrl = useCallback(
    (url: string, replace = false) => {
      if (replace) for (const it of items) release(it.id);
      const item: ImageItem = {
        id: `img-${++counter}`,
        name: url,
        preview: null,
        status: 'checking',
        progress: 0,
        url: null,
        error: null,
      };
      setItems((all) => (replace ? [item] : [...all, item].slice(0, max)));
      const ac = new AbortController();
      controllers.current.set(item.id, ac);
      void (async () => {
        try {
          const up = await uploadFromUrl(url, ac.signal);
          patch(item.id, { status: 'ready', progress: 1, url: up.url, preview: uploadPath(up) });
        } catch (err) {
          if (!ac.signal.aborted)
            patch(item.id, { status: 'error', error: describeError(err).message });
        } finally {
          controllers.current.delete(item.id);
        }
      })();
    },
    [items, max, patch, release],
  );

  const remove = useCallback(
    (id: string) => {
      release(id);
      setItems((all) => all.filter((it) => it.id !== id));
    },
    [release],
  );

  const move = useCallback((id: string, delta: -1 | 1) => {
    setItems((all) => {
      const i = all.findIndex((it) => it.id === id);
      const j = i + delta;
      if (i < 0 || j < 0 || j >= all.length) return all;
      const next = [...all];
      [next[i], next[j]] = [next[j] as ImageItem, next[i] as ImageItem];
      return next;
    });
  }, []);

  const clear = useCallback(() => {
    for (const it of items) release(it.id);
    setItems([]);
  }, [items, release]);

  return { items, addFiles, addUrl, remove, move, clear, setItems };
}

export type ImageItems = ReturnType<typeof useImageItems>;
