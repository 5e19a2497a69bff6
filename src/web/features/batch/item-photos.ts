// The photos of a batch's items until each is uploaded: this session's own files (and object URLs
// to show them), and the photo store that keeps them through a reload.
import type { PhotoStore } from './photo-store.ts';

/** The photo of an item was not kept through a reload (no IndexedDB, or it was cleared). */
export class PhotoLostError extends Error {
  override name = 'PhotoLostError';
  constructor(name: string) {
    super(`“${name}” was not kept by this browser through the reload; add it to a new batch.`);
  }
}

export function createItemPhotos(store: PhotoStore) {
  /** This session's photos, by item id (the store keeps them for a reload). */
  const memory = new Map<string, File>();
  /** Object URLs of those photos, made when first shown and revoked with the batch. */
  const previews = new Map<string, string>();

  return {
    /**
     * Holds each item's photo for this session and keeps it for a reload; a store that refuses
     * only costs the reload.
     */
    async hold(photos: readonly (readonly [itemId: string, file: File])[]): Promise<void> {
      for (const [id, file] of photos) memory.set(id, file);
      await Promise.all(photos.map(([id, file]) => store.put(id, file).catch(() => {})));
    },

    /** The photo of an item, to upload: this session's, else the one kept through a reload. */
    async take(itemId: string, name: string): Promise<File> {
      const photo = memory.get(itemId) ?? (await store.get(itemId).catch(() => undefined));
      if (!photo) throw new PhotoLostError(name);
      return photo instanceof File ? photo : new File([photo], name, { type: photo.type });
    },

    /** An item's photo is uploaded: it need not be kept any longer. */
    uploaded(itemId: string): void {
      memory.delete(itemId);
      void store.delete([itemId]).catch(() => {});
    },

    /** Drops the kept photos of items put away. */
    discard(itemIds: readonly string[]): void {
      void store.delete(itemIds).catch(() => {});
    },

    /** A picture of an item's photo while only this tab has it (before its upload). */
    preview(itemId: string): string | null {
      const known = previews.get(itemId);
      if (known) return known;
      const file = memory.get(itemId);
      if (!file || typeof URL.createObjectURL !== 'function') return null;
      const url = URL.createObjectURL(file);
      previews.set(itemId, url);
      return url;
    },

    /** Lets go of this session's photos and their pictures (the store keeps its own). */
    release(): void {
      for (const url of previews.values()) URL.revokeObjectURL(url);
      previews.clear();
      memory.clear();
    },
  };
}
