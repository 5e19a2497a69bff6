// The photos of a batch that are not uploaded yet, kept in IndexedDB (localStorage holds text
// and a few MB; a batch's photos are files of up to 20 MB each), so a reload mid-batch can still
// upload them. A photo is removed once uploaded, and all of them with the batch.

export interface PhotoStore {
  put(id: string, file: Blob): Promise<void>;
  get(id: string): Promise<Blob | undefined>;
  delete(ids: readonly string[]): Promise<void>;
}

const DB_NAME = 'kiln-batch';
const STORE = 'photos';

let opening: Promise<IDBDatabase> | undefined;

function open(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB could not be opened'));
    request.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
  }).catch((err: unknown) => {
    opening = undefined;
    throw err;
  });
  return opening;
}

async function inStore<T>(
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T> | void,
): Promise<T | undefined> {
  const db = await open();
  return new Promise<T | undefined>((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const request = work(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request ? request.result : undefined);
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

/** IndexedDB where the browser has it; otherwise nothing is kept (a reload loses unsent photos). */
export const browserPhotoStore: PhotoStore = {
  async put(id, file) {
    if (typeof indexedDB === 'undefined') return;
    await inStore('readwrite', (s) => s.put(file, id));
  },
  async get(id) {
    if (typeof indexedDB === 'undefined') return undefined;
    const found = await inStore<unknown>('readonly', (s) => s.get(id));
    return found instanceof Blob ? found : undefined;
  },
  async delete(ids) {
    if (typeof indexedDB === 'undefined' || ids.length === 0) return;
    await inStore('readwrite', (s) => {
      for (const id of ids) s.delete(id);
    });
  },
};

/** A store in memory (tests, and a browser without IndexedDB). */
export function memoryPhotoStore(): PhotoStore & { readonly size: number } {
  const photos = new Map<string, Blob>();
  return {
    async put(id, file) {
      photos.set(id, file);
    },
    async get(id) {
      return photos.get(id);
    },
    async delete(ids) {
      for (const id of ids) photos.delete(id);
    },
    get size() {
      return photos.size;
    },
  };
}
