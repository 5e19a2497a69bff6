// The bodies the owner's collection routes take, checked: a 400 names the field at fault.
import {
  COLLECTION_MEMBERS_MAX,
  CollectionMembersPatchSchema,
  CollectionNameBodySchema,
  ERROR_CODES,
  MODEL_NAME_MAX,
  checkModelName,
} from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';

/** The keys of a body that is an object (none for anything else). */
const keysOf = (body: unknown): string[] =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : [];

/** A collection's name as sent, checked: 1–120 characters, trimmed; or the 400 naming `name`. */
export function collectionName(body: unknown): string {
  const parsed = CollectionNameBodySchema.safeParse(body);
  if (!parsed.success) {
    const keys = keysOf(body);
    const stray = keys.find((k) => k !== 'name');
    throw new ApiError(400, {
      code: keys.includes('name') || stray ? ERROR_CODES.invalidValue : ERROR_CODES.missingField,
      message: stray
        ? `Only name can be sent (${stray} is not known).`
        : `name must be text: the collection's name (1 to ${MODEL_NAME_MAX} characters).`,
      param: stray ?? 'name',
    });
  }
  const checked = checkModelName(parsed.data.name);
  if (!checked.ok)
    throw new ApiError(400, {
      code: ERROR_CODES.invalidValue,
      message: checked.message,
      param: 'name',
    });
  if (checked.name === null)
    throw new ApiError(400, {
      code: ERROR_CODES.invalidValue,
      message: `A collection must have a name: name must be 1 to ${MODEL_NAME_MAX} characters.`,
      param: 'name',
    });
  return checked.name;
}

/** Ids in a message: the first few, then how many more. */
export function listed(ids: readonly string[]): string {
  const shown = ids.slice(0, 10).map((id) => (id.length > 60 ? `${id.slice(0, 60)}…` : id));
  return ids.length > shown.length
    ? `${shown.join(', ')} and ${ids.length - shown.length} more`
    : shown.join(', ');
}

/** `POST …/models`' body, checked: ids to add and to remove, or the 400 naming the field. */
export function membersChange(body: unknown): { add: string[]; remove: string[] } {
  const parsed = CollectionMembersPatchSchema.safeParse(body);
  if (!parsed.success) {
    const stray = keysOf(body).find((k) => k !== 'add' && k !== 'remove');
    const at = parsed.error.issues[0]?.path[0];
    const param = stray ?? (at === 'add' || at === 'remove' ? at : 'add');
    throw new ApiError(400, {
      code: ERROR_CODES.invalidValue,
      message: stray
        ? `Only add and remove can be sent (${stray} is not known).`
        : at === 'add' || at === 'remove'
          ? `${at} must be a list of at most ${COLLECTION_MEMBERS_MAX} library ids (text).`
          : 'Send add or remove: a list of library ids (at least one id in all).',
      param,
    });
  }
  const add = [...new Set(parsed.data.add ?? [])];
  const remove = [...new Set(parsed.data.remove ?? [])];
  const both = add.filter((id) => remove.includes(id));
  if (both.length > 0)
    throw new ApiError(400, {
      code: ERROR_CODES.invalidValue,
      message: `An id cannot be added and removed at once: ${listed(both)}.`,
      param: 'remove',
    });
  return { add, remove };
}
