// Which model of a shared collection its page shows in the viewer: `?m={index}` in the address
// (a link can point at one; back and forward step through the choices), else the first.

/**
 * The model the address chooses (`?m=2`: the one whose `index` is 2), else the first; null when
 * there is none. A value that names no model (an old or hand-typed link) falls back to the first.
 */
export function chosenModel<T extends { index: number }>(
  models: readonly T[],
  search: string,
): T | null {
  const m = new URLSearchParams(search).get('m');
  const wanted = m !== null && /^\d{1,6}$/.test(m) ? Number(m) : null;
  return models.find((model) => model.index === wanted) ?? models[0] ?? null;
}

/** The address's query string choosing the model at `index`, other parameters kept. */
export function modelSearch(search: string, index: number): string {
  const params = new URLSearchParams(search);
  params.set('m', String(index));
  return `?${params.toString()}`;
}
