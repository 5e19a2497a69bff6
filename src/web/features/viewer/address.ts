// Which addresses the /viewer page opens from its query string.
/**
 * Only paths on this origin are opened by address ("/api/assets/x.glb"), never another site's
 * URL (nor a protocol-relative "//host/x" or a backslash trick that browsers read as one).
 */
export function sameOriginPath(value: string | null): string | null {
  if (!value) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  return value;
}

/** The models a /viewer query string names: `?src=` (or `?a=`) and, to compare, `?b=`. */
export function modelQuery(search: string): { a: string | null; b: string | null } {
  const params = new URLSearchParams(search);
  return { a: params.get('a') ?? params.get('src'), b: params.get('b') };
}

/** Whose model each side shows: `task`/`a_task` and `b_task`, and `a_optimised`/`b_optimised`
 * (the target of an optimised copy, "Web / AR"). The label is read from that library entry. */
export interface SlotOrigin {
  taskId: string | null;
  optimised: string | null;
}

export function originQuery(search: string): { a: SlotOrigin; b: SlotOrigin } {
  const params = new URLSearchParams(search);
  const clean = (v: string | null) => (v && v.length <= 200 ? v : null);
  return {
    a: {
      taskId: clean(params.get('a_task') ?? params.get('task')),
      optimised: clean(params.get('a_optimised')),
    },
    b: { taskId: clean(params.get('b_task')), optimised: clean(params.get('b_optimised')) },
  };
}

/**
 * A /viewer address: one model, or two compared, each with whose it is. A library entry's own
 * model is named by its id alone (`task=`, `a_task=`, `b_task=`): its file's signed address
 * expires, the id does not, so a bookmark keeps working (the page asks the library for a fresh
 * address). An optimised copy has no entry of its own: its address stays, with its entry's id.
 */
export function viewerHref(
  a: { url: string; taskId?: string; optimised?: string },
  b?: { url: string; taskId?: string; optimised?: string },
): string {
  const params = new URLSearchParams();
  const side = (
    model: { url: string; taskId?: string; optimised?: string },
    names: { url: string; task: string; optimised: string },
  ) => {
    if (!model.taskId || model.optimised) params.set(names.url, model.url);
    if (model.taskId) params.set(names.task, model.taskId);
    if (model.optimised) params.set(names.optimised, model.optimised);
  };
  side(
    a,
    b
      ? { url: 'a', task: 'a_task', optimised: 'a_optimised' }
      : {
          url: 'src',
          task: 'task',
          optimised: 'a_optimised',
        },
  );
  if (b) side(b, { url: 'b', task: 'b_task', optimised: 'b_optimised' });
  return `/viewer?${params.toString()}`;
}

/** An address without its query (a signed address's path): what two names of one file share. */
export function addressPath(url: string): string {
  return url.split(/[?#]/)[0] ?? url;
}

/** The same, keeping only what may be opened (see sameOriginPath). */
export function modelPathsFromQuery(search: string): { a: string | null; b: string | null } {
  const { a, b } = modelQuery(search);
  return { a: sameOriginPath(a), b: sameOriginPath(b) };
}
