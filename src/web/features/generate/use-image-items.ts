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

/** An image the form starts with (a draft's): already uploaded, ready. */
function readyItem(image: { url: string; name?: string }): ImageItem {
  return {
    id: `img-${++counter}`,
    name: image.name ?? image.url.split('/').pop() ?? image.url,
    preview: image.url,
    status: 'ready',
    progress: 1,
    url: image.url,
    error: null,
  };
}

/** An image just added: being checked, nothing uploaded yet. */
function newItem(name: string): ImageItem {
  return {
    id: `img-${++counter}`,
    name,
    preview: null,
    status: 'checking',
    progress: 0,
    url: null,
    error: null,
  };
}

/** The items with the one of `id` swapped with its neighbour (`delta` -1: earlier, 1: later). */
function moved(all: ImageItem[], id: string, delta: -1 | 1): ImageItem[] {
  const i = all.findIndex((it) => it.id === id);
  const j = i + delta;
  if (i < 0 || j < 0 || j >= all.length) return all;
  const next = [...all];
  [next[i], next[j]] = [next[j] as ImageItem, next[i] as ImageItem];
  return next;
}

type Patch = (id: string, change: Partial<ImageItem>) => void;
/** An upload: what the item becomes once it answers (its URL, maybe its preview). */
type Upload = (signal: AbortSignal) => Promise<Partial<ImageItem>>;

/**
 * What the items hold outside React: each one's upload in flight and the object URL made for
 * its preview. `release` aborts the one and revokes the other; leaving the form releases all.
 */
function useUploads(patch: Patch) {
  const controllers = useRef(new Map<string, AbortController>());
  const previews = useRef(new Map<string, string>());

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

  /** A preview of a file for item `id`, revoked when the item is released. */
  const preview = useCallback((id: string, file: File) => {
    const url = URL.createObjectURL(file);
    previews.current.set(id, url);
    return url;
  }, []);

  /** Item `id` uploaded: ready with what the upload answers, or its error said (unless aborted). */
  const start = useCallback(
    (id: string, upload: Upload) => {
      const ac = new AbortController();
      controllers.current.set(id, ac);
      void (async () => {
        try {
          patch(id, { status: 'ready', progress: 1, ...(await upload(ac.signal)) });
        } catch (err) {
          if (!ac.signal.aborted) patch(id, { status: 'error', error: describeError(err).message });
        } finally {
          controllers.current.delete(id);
        }
      })();
    },
    [patch],
  );

  return { release, preview, start };
}

/**
 * The images of the form. Files are checked (by content) and uploaded at once,
 * each with its own progress; whoever creates an object URL here revokes it.
 */
export function useImageItems(
  max: number,
  initial: readonly { url: string; name?: string }[] = [],
) {
  const [items, setItems] = useState<ImageItem[]>(() => initial.slice(0, max).map(readyItem));
  const patch = useCallback<Patch>((id, change) => {
    setItems((all) => all.map((it) => (it.id === id ? { ...it, ...change } : it)));
  }, []);
  const { release, preview, start } = useUploads(patch);

  /** Files added (or put in place of all): each checked, then uploaded; answers how many did not fit. */
  const addFiles = useCallback(
    (files: readonly File[], replace = false) => {
      const room = replace ? max : max - items.length;
      const accepted = files.slice(0, Math.max(0, room));
      if (replace) for (const it of items) release(it.id);
      const fresh = accepted.map((f) => newItem(f.name || 'pasted image'));
      setItems((all) => (replace ? fresh : [...all, ...fresh]));
      fresh.forEach((item, i) => {
        const file = accepted[i] as File;
        void (async () => {
          const problem = await checkImageFile(file);
          if (problem) return patch(item.id, { status: 'error', error: problem });
          patch(item.id, { preview: preview(item.id, file), status: 'uploading' });
          start(item.id, async (signal) => {
            const onProgress = (p: number) => patch(item.id, { progress: p });
            return { url: (await uploadImage(file, { signal, onProgress })).url };
          });
        })();
      });
      return files.length - accepted.length;
    },
    [items, max, patch, preview, release, start],
  );

  // A pasted address: Kiln fetches it once and keeps it like an upload (checked, previewed
  // from Kiln); an address that gives no image says why at once, before any create.
  const addUrl = useCallback(
    (url: string, replace = false) => {
      if (replace) for (const it of items) release(it.id);
      const item = newItem(url);
      setItems((all) => (replace ? [item] : [...all, item].slice(0, max)));
      start(item.id, async (signal) => {
        const up = await uploadFromUrl(url, signal);
        return { url: up.url, preview: uploadPath(up) };
      });
    },
    [items, max, release, start],
  );

  const remove = useCallback(
    (id: string) => {
      release(id);
      setItems((all) => all.filter((it) => it.id !== id));
    },
    [release],
  );

  const move = useCallback((id: string, delta: -1 | 1) => {
    setItems((all) => moved(all, id, delta));
  }, []);

  const clear = useCallback(() => {
    for (const it of items) release(it.id);
    setItems([]);
  }, [items, release]);

  return { items, addFiles, addUrl, remove, move, clear, setItems };
}

export type ImageItems = ReturnType<typeof useImageItems>;
