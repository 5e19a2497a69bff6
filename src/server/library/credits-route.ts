// `GET /api/credits`: the balance, derived (ledger.ts): the newest figure the upstream stated
// cleanly, less every charge and plus every refund since, with its history; "not exact" says why
// when it is not.
import type { Context } from 'hono';
import { providerOfModel, type Credits } from '../../contract/index.ts';
import { ownerOf as theOwner, type OwnerEnv } from '../middleware/owner.ts';
import { bearerKey } from '../owner-id.ts';
import type { CreateIntent } from '../storage/intents.ts';
import type { LedgerTask } from '../storage/library.ts';
import { deriveBalance } from './ledger.ts';
import type { LibraryRouteDeps } from './route-deps.ts';

/** Longer than any create takes (a sync one: 70 s): an intent older than this lost its answer. */
const INTENT_IN_FLIGHT_MS = 90_000;

/**
 * What the balance is derived from: the tasks' windows, the refusals, the creates not answered
 * yet (an intent whose row is written, its removal failed in an outage, is resolved: it goes),
 * and each model's price (the upstream's listing, else what a task of it cost).
 */
async function ledgerOf(deps: LibraryRouteDeps, owner: string, incoming: Request, now: number) {
  const [all, refusals, allPending, listed] = await Promise.all([
    deps.store.ledger(owner, 500),
    deps.store.refusals(owner, 100),
    deps.intents?.unresolved(owner, now + 1) ?? [],
    deps.prices?.(owner, incoming) ?? new Map<string, number>(),
  ]);
  // The spec upstream's credits only: a provider's tasks are counted in its own unit, by its own
  // balance call (decision 0114).
  const tasks = all.filter((t) => providerOfModel(t.model) === 'spec');
  const pending = allPending.filter((i) => providerOfModel(i.model) === 'spec');
  const written = new Set(tasks.map((t) => `${t.sentMs}\n${t.model}`));
  const intents = pending.filter((i) => {
    if (!written.has(`${i.sentMs}\n${i.model}`)) return true;
    void deps.intents?.remove(i.id).catch(() => {});
    return false;
  });
  return { tasks, refusals, intents, prices: pricesOf(listed, tasks) };
}

function pricesOf(listed: ReadonlyMap<string, number>, tasks: readonly LedgerTask[]) {
  const prices = new Map(listed);
  for (const t of tasks)
    if (t.creditsConsumed !== null && !prices.has(t.model)) prices.set(t.model, t.creditsConsumed);
  return prices;
}

/**
 * A create still on its way (a sync one waits up to a minute) is a charge not known yet; one
 * older than any create can take lost its answer.
 */
function inFlightOf(intents: readonly CreateIntent[], now: number): number {
  return intents.filter((i) => now - i.sentMs < INTENT_IN_FLIGHT_MS).length;
}

function inFlightNote(inFlight: number): string {
  return `${inFlight === 1 ? 'A create is' : `${inFlight} creates are`} on the way to the upstream; the balance is exact once ${inFlight === 1 ? 'it is' : 'they are'} answered.`;
}

/** Nothing stated yet: where the upstream can be asked (the embedded mock), its figure now. */
async function statedCredits(
  deps: LibraryRouteDeps,
  authorization: string | undefined,
  now: number,
): Promise<Credits | undefined> {
  if (!deps.statedBalance) return undefined;
  const key = bearerKey(authorization);
  const stated = key ? await deps.statedBalance(key).catch(() => undefined) : undefined;
  if (stated === undefined) return undefined;
  return {
    balance: stated,
    learned_ms: now,
    as_of_ms: now,
    exact: true,
    note: null,
    history: [{ balance: stated, learned_ms: now, task_id: null, kind: 'stated', change: null }],
  };
}

function creditsOf(derived: ReturnType<typeof deriveBalance>, inFlight: number): Credits {
  const note = inFlight > 0 ? inFlightNote(inFlight) : derived.note;
  return {
    balance: derived.balance,
    learned_ms: derived.asOfMs,
    as_of_ms: derived.throughMs,
    exact: derived.exact && inFlight === 0,
    note: derived.balance === null ? null : note,
    history: derived.history.map((h) => ({
      balance: h.balance,
      learned_ms: h.atMs,
      task_id: h.taskId,
      kind: h.kind,
      change: h.change,
      ...(h.correction ? { correction: h.correction } : {}),
    })),
  };
}

export function creditsRoute(deps: LibraryRouteDeps) {
  return async (c: Context<OwnerEnv>): Promise<Response> => {
    const owner = theOwner(c);
    const now = deps.now?.() ?? Date.now();
    // Tasks that may have ended unseen (a closed tab, an outage) are asked about first.
    if (deps.catchUp)
      await deps.catchUp(
        owner,
        c.req.raw,
        await deps.store.list(owner, { limit: 8, filter: { status: 'pending' } }),
      );
    const { tasks, refusals, intents, prices } = await ledgerOf(deps, owner, c.req.raw, now);
    const derived = deriveBalance({
      tasks,
      refusals,
      unresolvedSentMs: intents.map((i) => i.sentMs),
      prices,
      ...(deps.clockMarginMs !== undefined ? { clockMarginMs: deps.clockMarginMs } : {}),
    });
    const stated =
      derived.balance === null
        ? await statedCredits(deps, c.req.header('authorization'), now)
        : undefined;
    const body = stated ?? creditsOf(derived, inFlightOf(intents, now));
    return c.json(body, 200, { 'cache-control': 'no-store' });
  };
}
