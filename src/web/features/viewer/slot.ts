// What one side of /viewer shows: nothing yet, a model by address, or a file from this device.
import { sameOriginPath } from './address.ts';
import type { OriginFact } from '../../lib/entry-format.ts';
import type { LocalFile } from './index.ts';

/** A model by address, with the name its downloads get and the label read to assistive tech. */
export interface UrlSlot {
  kind: 'url';
  url: string;
  name: string;
  label: string;
  /** The library entry whose model it is, when known (its label is then the entry's). */
  taskId?: string;
  /** The target of an optimised copy ("Web / AR"), when it is one. */
  optimised?: string;
  /** Where its library entry says it came from: made by, time taken, price (decision 0116). */
  origin?: readonly OriginFact[];
}

/**
 * A library entry's model named by its id: the library gives its file's address (a fresh signed
 * one) to a signed-in user; `url` is the address an older link carried beside the id, if any.
 */
interface EntrySlot {
  kind: 'entry';
  taskId: string;
  url: string | null;
}

export type Slot = { kind: 'none' } | UrlSlot | EntrySlot | { kind: 'file'; file: LocalFile };

/**
 * What one side of a /viewer address opens. An entry's id is read first when the library can be
 * asked (`signedIn`): a link whose signed address has expired still opens it. Without a key, the
 * address it carries (if any) is opened as it is.
 */
export function slotFromQuery(
  value: string | null,
  origin: { taskId: string | null; optimised: string | null } = { taskId: null, optimised: null },
  signedIn = false,
): Slot {
  const path = sameOriginPath(value);
  if (origin.taskId && !origin.optimised && (signedIn || !path))
    return { kind: 'entry', taskId: origin.taskId, url: path };
  if (!path) return { kind: 'none' };
  const whose = {
    ...(origin.taskId ? { taskId: origin.taskId } : {}),
    ...(origin.optimised ? { optimised: origin.optimised } : {}),
  };
  const file = decodeURIComponent(path.split(/[?#]/)[0]!.split('/').pop() ?? 'model');
  const name = file.replace(/\.glb$/i, '');
  // Content-addressed names are long hashes: show their start.
  const short = /^[a-f0-9]{64}\.glb$/i.test(file) ? `${file.slice(0, 12)}….glb` : file;
  return {
    kind: 'url',
    url: path,
    name,
    label: origin.optimised ? `3D model, optimised for ${origin.optimised}` : `3D model ${short}`,
    ...whose,
  };
}
