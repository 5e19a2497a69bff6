import { describe, expect, it } from 'vitest';
import { createItemPhotos, PhotoLostError } from './item-photos.ts';
import { memoryPhotoStore } from './photo-store.ts';

const file = (name: string) => new File([new Uint8Array([1, 2])], name, { type: 'image/png' });

describe('the photos of a batch’s items', () => {
  it('holds them for this session and keeps them for a reload, until uploaded', async () => {
    const store = memoryPhotoStore();
    const photos = createItemPhotos(store);
    const chair = file('chair.png');
    await photos.hold([['b1-1', chair]]);
    expect(store.size).toBe(1);
    expect(await photos.take('b1-1', 'chair.png')).toBe(chair);
    photos.uploaded('b1-1');
    await Promise.resolve();
    expect(store.size).toBe(0);
    await expect(photos.take('b1-1', 'chair.png')).rejects.toBeInstanceOf(PhotoLostError);
  });

  it('takes a photo kept through a reload as a named file', async () => {
    const store = memoryPhotoStore();
    await store.put('b1-1', new Blob([new Uint8Array([3])], { type: 'image/webp' }));
    const taken = await createItemPhotos(store).take('b1-1', 'horse.webp');
    expect(taken).toBeInstanceOf(File);
    expect([taken.name, taken.type]).toEqual(['horse.webp', 'image/webp']);
  });

  it('says which photo was lost', async () => {
    const photos = createItemPhotos(memoryPhotoStore());
    await expect(photos.take('b1-1', 'robot.png')).rejects.toThrow(
      '“robot.png” was not kept by this browser through the reload; add it to a new batch.',
    );
  });

  it('shows a held photo by one object URL, and lets go of it on release', async () => {
    const made: string[] = [];
    const revoked: string[] = [];
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = () => {
      made.push(`blob:${made.length + 1}`);
      return made.at(-1)!;
    };
    URL.revokeObjectURL = (url) => void revoked.push(url);
    try {
      const photos = createItemPhotos(memoryPhotoStore());
      await photos.hold([['b1-1', file('chair.png')]]);
      expect(photos.preview('b1-1')).toBe('blob:1');
      expect(photos.preview('b1-1')).toBe('blob:1');
      expect(photos.preview('b1-2')).toBeNull();
      photos.release();
      expect(revoked).toEqual(['blob:1']);
      expect(photos.preview('b1-1')).toBeNull();
    } finally {
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
    }
  });
});
