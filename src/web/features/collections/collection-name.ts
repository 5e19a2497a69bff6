// What a collection's name may be, said at its field before it is sent (decision 0087): the
// model-name rules (1–120 characters, trimmed; no control characters or direction overrides),
// a name it must have, and one the owner does not already use (whatever its case).
import { checkModelName, type Collection } from '../../../contract/index.ts';

export type CollectionNameCheck = { ok: true; name: string } | { ok: false; message: string };

/** "name must …" as the field says it: "Name must …". */
export const atTheField = (message: string) => message.replace(/^name\b/, 'Name');

/**
 * A name typed for a new collection (or a new name for `self`), checked against the rules and
 * the owner's other collections (`existing`, when known): the name to send, or what is wrong.
 */
export function checkCollectionName(
  value: string,
  existing: readonly Pick<Collection, 'id' | 'name'>[] = [],
  self?: string,
): CollectionNameCheck {
  const checked = checkModelName(value);
  if (!checked.ok) return { ok: false, message: atTheField(checked.message) };
  if (checked.name === null) return { ok: false, message: 'Give the collection a name.' };
  const key = checked.name.toLocaleLowerCase();
  const taken = existing.find((c) => c.id !== self && c.name.toLocaleLowerCase() === key);
  if (taken) return { ok: false, message: `You already have a collection called “${taken.name}”.` };
  return { ok: true, name: checked.name };
}

/** "1 model", "3 models". */
export const modelCount = (n: number) => `${n} ${n === 1 ? 'model' : 'models'}`;
