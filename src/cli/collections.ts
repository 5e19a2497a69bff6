// `--collection` takes a collection's id (`col_…`) or its name (any case, as Kiln keeps names
// unique regardless of case). `ls` only reads one; `generate` and `batch` make it when no
// collection has that name yet, as the studio's "Add to collection" does.
import { InvalidRequestError } from '../client/index.ts';
import type { KilnApi } from '../client/kiln/index.ts';
import { COLLECTION_ID, type Collection } from '../contract/index.ts';
import { UsageError } from './exit.ts';

const FLAG = '--collection';

async function find(api: KilnApi, nameOrId: string): Promise<Collection | undefined> {
  const all = await api.collections.list();
  if (COLLECTION_ID.test(nameOrId)) return all.find((c) => c.id === nameOrId);
  const wanted = nameOrId.trim().toLocaleLowerCase();
  return all.find((c) => c.name.toLocaleLowerCase() === wanted);
}

/** The collection `nameOrId` names; a UsageError naming --collection when there is none. */
export async function findCollection(api: KilnApi, nameOrId: string): Promise<Collection> {
  const found = await find(api, nameOrId);
  if (!found)
    throw new UsageError(
      FLAG,
      `no collection ${COLLECTION_ID.test(nameOrId) ? 'with the id' : 'named'} "${nameOrId}".`,
    );
  return found;
}

/** The collection `nameOrId` names, made (by that name) when there is none yet. */
export async function ensureCollection(api: KilnApi, nameOrId: string): Promise<Collection> {
  const found = await find(api, nameOrId);
  if (found) return found;
  if (COLLECTION_ID.test(nameOrId))
    throw new UsageError(FLAG, `no collection with the id "${nameOrId}".`);
  return api.collections.create(nameOrId.trim()).catch((err: unknown) => {
    // Kiln names `name` in a refusal of the name; here that is the flag's value.
    if (err instanceof InvalidRequestError) throw new UsageError(FLAG, err.message);
    throw err;
  });
}

/** The collection's name and id, as a --json document says it. */
export const collectionRef = (c: Collection | null) => (c ? { id: c.id, name: c.name } : null);
