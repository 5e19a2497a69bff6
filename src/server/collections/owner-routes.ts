// The owner's collections, one handler per route (`/api/collections…`): list, make, read,
// rename, delete, change the members, download as one zip. The link routes are link-routes.ts's.
import type { Context } from 'hono';
import { ERROR_CODES, type CollectionList } from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { unusable, zipAnswer, type Skipped } from '../library/download-zip.ts';
import { readJson } from '../middleware/boundary.ts';
import { ownerOf as theOwner, type OwnerEnv } from '../middleware/owner.ts';
import { NO_STORE } from '../share/public-link.ts';
import type { LibraryRow } from '../storage/library.ts';
import { collectionName, listed, membersChange } from './bodies.ts';
import { notFound, type CollectionContext } from './context.ts';
import { collectionZipName, isCollectionId } from './service.ts';

type IdContext = Context<OwnerEnv, '/collections/:id'>;

const nameTaken = (name: string) =>
  new ApiError(409, {
    code: ERROR_CODES.collectionNameTaken,
    message: `You already have a collection called “${name}” (names are compared regardless of case). Choose another name.`,
    param: 'name',
  });

/** `GET /collections`: the owner's collections by name. */
export function listRoute(ctx: CollectionContext) {
  return async (c: Context<OwnerEnv>) => {
    const rows = await ctx.deps.collections.list(theOwner(c));
    const body: CollectionList = { object: 'list', data: rows.map((r) => ctx.view(c, r)) };
    return c.json(body, 200, NO_STORE);
  };
}

/** `POST /collections`: a new one, its name unique regardless of case (else 409). */
export function createRoute(ctx: CollectionContext) {
  return async (c: Context<OwnerEnv>) => {
    const name = collectionName(await readJson(c, '{ "name": "Chairs" }'));
    const made = await ctx.deps.collections.create(theOwner(c), ctx.newId(), name, ctx.deps.now());
    if (made === 'name_taken') throw nameTaken(name);
    return c.json(ctx.view(c, made), 201, NO_STORE);
  };
}

/** `GET /collections/{id}`. */
export function readRoute(ctx: CollectionContext) {
  return async (c: IdContext) => c.json(ctx.view(c, await ctx.theCollection(c)), 200, NO_STORE);
}

/** `PATCH /collections/{id}` `{ "name" }`: renamed, the name unique as a new one's. */
export function renameRoute(ctx: CollectionContext) {
  return async (c: IdContext) => {
    const body = await readJson(c, '{ "name": "Chairs" }');
    const id = (await ctx.theCollection(c)).id;
    const name = collectionName(body);
    const renamed = await ctx.deps.collections.rename(theOwner(c), id, name, ctx.deps.now());
    if (renamed === 'name_taken') throw nameTaken(name);
    if (!renamed) throw notFound();
    return c.json(ctx.view(c, renamed), 200, NO_STORE);
  };
}

/** `DELETE /collections/{id}`: it goes, with its link (its page answers 404 at once); its models stay. */
export function deleteRoute(ctx: CollectionContext) {
  return async (c: IdContext) => {
    const id = c.req.param('id');
    if (!isCollectionId(id) || !(await ctx.deps.collections.remove(theOwner(c), id)))
      throw notFound();
    return c.body(null, 204);
  };
}

/**
 * `POST /collections/{id}/models` `{ add, remove }`: all or nothing, ids that are not the
 * caller's library rows are named and nothing changes.
 */
export function membersRoute(ctx: CollectionContext) {
  return async (c: Context<OwnerEnv, '/collections/:id/models'>) => {
    const body = await readJson(c, '{ "add": ["task_…"], "remove": ["task_…"] }');
    const id = (await ctx.theCollection(c)).id;
    const change = membersChange(body);
    const changed = await ctx.deps.collections.changeMembers(
      theOwner(c),
      id,
      change,
      ctx.deps.now(),
    );
    if (!changed) throw notFound();
    if ('unknown' in changed) {
      const field = changed.unknown.add.length > 0 ? 'add' : 'remove';
      const ids = changed.unknown[field];
      throw new ApiError(400, {
        code: ERROR_CODES.invalidValue,
        message: `${field} names ${ids.length === 1 ? 'a model that is' : `${ids.length} models that are`} not in your library: ${listed(ids)}. Nothing was changed.`,
        param: field,
      });
    }
    return c.json(ctx.view(c, changed), 200, NO_STORE);
  };
}

/** The members a zip takes (archived, shown), and the others with the reason each is left out. */
function zipMembers(members: readonly LibraryRow[]) {
  const usable: LibraryRow[] = [];
  const skipped: Skipped[] = [];
  for (const row of members) {
    const why = row.hidden ? 'hidden in your gallery' : unusable(row);
    if (why === null) usable.push(row);
    else skipped.push({ id: row.taskId, reason: why });
  }
  return { usable, skipped };
}

/**
 * `GET /collections/{id}/download.zip`: every archived, shown model in it as one zip
 * (download-zip.ts); the others are listed in its README.txt.
 */
export function zipRoute(ctx: CollectionContext) {
  return async (c: Context<OwnerEnv, '/collections/:id/download.zip'>) => {
    const collection = await ctx.theCollection(c);
    const members = await ctx.deps.collections.members(theOwner(c), collection.id);
    const { usable, skipped } = zipMembers(members);
    if (usable.length === 0)
      throw new ApiError(409, {
        code: ERROR_CODES.taskNotArchived,
        message:
          members.length === 0
            ? 'This collection is empty: add models to it before downloading it.'
            : 'No model in this collection is ready to download yet (finished, kept by Kiln, and shown in your gallery).',
        param: 'id',
      });
    const name = collectionZipName(collection.name, new Date(ctx.deps.now()));
    return zipAnswer(c, ctx.deps, usable, skipped, name);
  };
}
