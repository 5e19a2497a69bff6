// Tests only: a database (or blob store) that can be switched off, as a stopped PostgreSQL or
// bucket looks to Kiln: every call fails with ECONNREFUSED until it is switched on again.
import type { BlobStore } from '../server/storage/blobs.ts';
import type { Storage } from '../server/storage/database.ts';

export interface Outage {
  down: boolean;
}

const refused = (what: string) =>
  Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:5432 (${what} is down)`), {
    code: 'ECONNREFUSED',
  });

function switched<T extends object>(target: T, outage: Outage, what: string): T {
  return new Proxy(target, {
    get(t, prop, receiver) {
      const value: unknown = Reflect.get(t, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (outage.down) return Promise.reject(refused(what));
        return (value as (...a: unknown[]) => unknown).apply(t, args);
      };
    },
  });
}

/** The storage, each of its stores failing while `outage.down` (close still works). */
export function storageWithOutage(storage: Storage, outage: Outage): Storage {
  const out = { ...storage };
  for (const key of [
    'library',
    'idempotency',
    'intents',
    'uploads',
    'counters',
    'leases',
    'shares',
    'collections',
    'optimiseJobs',
  ] as const)
    (out as Record<string, unknown>)[key] = switched(storage[key], outage, 'the database');
  out.ping = () => (outage.down ? Promise.reject(refused('the database')) : storage.ping());
  return out;
}

/** A blob store failing while `outage.down`. */
export function blobsWithOutage(blobs: BlobStore, outage: Outage): BlobStore {
  return switched(blobs, outage, 'the bucket');
}
