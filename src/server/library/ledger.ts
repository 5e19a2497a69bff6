// The balance, derived from what is really known (decision 0076).
//
// The upstream tells a balance in two places only: a completed task's `usage.credits_remaining`
// (the balance right after *that task's* charge) and a 402's message (the balance when the
// create was refused). It charges at creation and refunds a task that fails. So Kiln keeps, for
// every task, the window in which its charge happened (between sending the create and its
// answer) and, for a failed one, the window of its refund (between the last sighting of it
// pending and the first of it failed), and derives the balance as a ledger:
//
//   balance = the newest *clean* observation + every refund after it − every charge after it,
//
// where an observation is clean when no other charge's or refund's window overlaps its own:
// then every other event is surely before it (already in the figure) or surely after it (added
// here). In a burst many charges overlap and no task in it is clean, but the ledger from the
// clean observation before the burst is exact once the burst's prices are known. With no clean
// observation at all, the balance is the newest figure the upstream stated, as of when it did,
// and says that it is not exact.

import type { BALANCE_POINT_KINDS, CorrectionCause } from '../../contract/index.ts';
import type { LedgerTask, Refusal } from '../storage/library.ts';

export type { LedgerTask };

type LedgerPointKind = (typeof BALANCE_POINT_KINDS)[number];

interface LedgerPoint {
  balance: number;
  /** When the event was seen (the end of its window). */
  atMs: number;
  kind: LedgerPointKind;
  taskId: string | null;
  /** What the event changed: −price for a charge, +price for a refund, the gap for a correction. */
  change: number | null;
  /** A correction's two figures, Kiln's walk and the upstream's, and why they differed. */
  correction?: { ledger: number; stated: number; cause: CorrectionCause };
}

export interface LedgerInput {
  tasks: readonly LedgerTask[];
  refusals: readonly Refusal[];
  /** When creates were sent whose answers Kiln never got (a charge it cannot see). */
  unresolvedSentMs: readonly number[];
  /** Credits per task of each model (the listing's, or learned from completed tasks). */
  prices: ReadonlyMap<string, number>;
  /**
   * How far the clocks that wrote the windows may disagree: 0 when one process wrote them all
   * (embedded SQLite), CLOCK_MARGIN_MS across replicas. Windows that only touch are ordered.
   */
  clockMarginMs?: number;
}

export interface Balance {
  /** The balance now; null before the upstream has stated any. */
  balance: number | null;
  /** When the upstream stated the figure this one is derived from. */
  asOfMs: number | null;
  /**
   * The moment the balance is true as of, as far as Kiln saw (decision 0100): the later of that
   * statement and the last charge or refund Kiln walked after it. Credits spent outside Kiln
   * since the statement are not in it: Kiln cannot see them until the upstream states again.
   */
  throughMs: number | null;
  /**
   * True when every charge and refund Kiln saw since that statement is known exactly: exact
   * relative to what went through Kiln, as of `throughMs`, never about spending outside it.
   */
  exact: boolean;
  /** Why it is not exact, in a sentence (null when it is). */
  note: string | null;
  /** Oldest first. */
  history: LedgerPoint[];
}

/**
 * Clocks of two replicas may differ by this much: windows are widened by it (NTP keeps hosts on
 * one network within a few milliseconds; docs/deploy.md asks for it).
 */
const CLOCK_MARGIN_MS = 20;

interface Event {
  kind: 'charge' | 'refund';
  task: LedgerTask;
  from: number;
  to: number;
  amount: number | undefined;
}

interface Observation {
  balance: number;
  from: number;
  to: number;
  /** The charge this observation follows (a completed task's), if any. */
  charge: Event | undefined;
}

/** The price of a task: what it was charged, else its model's known price. */
function priceOf(task: LedgerTask, prices: ReadonlyMap<string, number>): number | undefined {
  return task.creditsConsumed ?? prices.get(task.model);
}

function eventsOf(input: LedgerInput): Event[] {
  const events: Event[] = [];
  for (const task of input.tasks) {
    const amount = priceOf(task, input.prices);
    events.push({ kind: 'charge', task, from: task.sentMs, to: task.answeredMs, amount });
    if (task.status === 'failed')
      events.push({
        kind: 'refund',
        task,
        from: task.lastPendingMs ?? task.sentMs,
        to: task.endedMs ?? Math.max(task.answeredMs, task.lastPendingMs ?? 0),
        amount,
      });
  }
  return events;
}

type Window = { from: number; to: number };
/** Derives the balance and its history from the owner's tasks and refusals. */
export function deriveBalance(input: LedgerInput): Balance {
  const m = input.clockMarginMs ?? CLOCK_MARGIN_MS;
  const overlaps = (a: Window, b: Window) => a.from - m < b.to + m && b.from - m < a.to + m;
  /** True when the event surely happened after the observation (its window starts after). */
  const isCleanlyAfter = (e: Event, o: Observation) => e.from - m >= o.to + m;
  const events = eventsOf(input);
  const chargeOf = new Map(events.filter((e) => e.kind === 'charge').map((e) => [e.task, e]));
  const observations: Observation[] = [
    ...input.tasks
      .filter((t) => t.status === 'completed' && t.creditsRemaining !== null)
      .map((t) => ({
        balance: t.creditsRemaining!,
        from: t.sentMs,
        to: t.answeredMs,
        charge: chargeOf.get(t),
      })),
    ...input.refusals.map((r) => ({
      balance: r.balance,
      from: r.sentMs,
      to: r.answeredMs,
      charge: undefined,
    })),
  ].sort((a, b) => a.to - b.to);
  if (observations.length === 0)
    return { balance: null, asOfMs: null, throughMs: null, exact: false, note: null, history: [] };

  // A figure reached through a recovery path (a replayed create) proves nothing: its task's charge
  // is known only to lie within a wide window, so it is never an anchor (decision 0091).
  const isClean = (o: Observation) =>
    !o.charge?.task.recovered &&
    events.every((e) => e === o.charge || !overlaps(o, e)) &&
    input.unresolvedSentMs.every((t) => !overlaps(o, { from: t, to: t }));
  const cleanOnes = observations.filter(isClean);
  const anchor = cleanOnes[cleanOnes.length - 1];
  // Without a clean figure, every figure the upstream stated is taken as it comes (in the order
  // their windows end): the result is "about", and says so.
  const clean = anchor ? cleanOnes : observations;
  const first = clean[0]!;

  // The walk: from the first clean observation (or the first of all), every event after it in
  // the order it was seen, re-anchored at each later clean observation.
  const history: LedgerPoint[] = [];
  const after = (e: Event, o: Observation) =>
    e !== o.charge && (anchor ? isCleanlyAfter(e, o) : e.to > o.to);
  let value = first.balance;
  history.push({
    balance: value,
    atMs: first.to,
    kind: 'stated',
    taskId: first.charge?.task.taskId ?? null,
    change: first.charge?.amount === undefined ? null : -first.charge.amount,
  });
  const later = events
    .filter((e) => after(e, first))
    .sort((a, b) => a.to - b.to || (a.kind === 'charge' ? -1 : 1));
  let missing = 0;
  let anchoredTo = first.to;
  let ci = clean.indexOf(first) + 1;
  /** A recovered charge walked since the last figure: the walk placed it by a guess. */
  let walkedRecovery = false;
  /**
   * The upstream's figure differs from the walk: a correction, never a credit. Without an anchor
   * the walk's order was a guess; with one, a recovered charge was, or credits moved outside Kiln.
   */
  const adjust = (to: number, atMs: number, taskId: string | null) => {
    if (to === value) return;
    const cause: CorrectionCause = !anchor ? 'overlap' : walkedRecovery ? 'recovery' : 'outside';
    history.push({
      balance: to,
      atMs,
      kind: 'correction',
      taskId,
      change: to - value,
      correction: { ledger: value, stated: to, cause },
    });
    value = to;
  };
  const reanchor = (o: Observation) => {
    anchoredTo = o.to;
    missing = 0;
    walkedRecovery = false;
  };
  for (const e of later) {
    // A clean refusal seen before this event: the upstream's figure wins.
    while (clean[ci] && !clean[ci]!.charge && clean[ci]!.to < e.from) {
      const o = clean[ci++]!;
      adjust(o.balance, o.to, null);
      reanchor(o);
    }
    // A clean observation is the balance right after its own charge.
    const own = clean.find((o) => o.charge === e);
    if (own) {
      ci = Math.max(ci, clean.indexOf(own) + 1);
      if (e.amount !== undefined) adjust(own.balance + e.amount, e.from, null);
      const change = e.amount === undefined ? own.balance - value : -e.amount;
      value = own.balance;
      history.push({ balance: value, atMs: e.to, kind: 'charge', taskId: e.task.taskId, change });
      reanchor(own);
      continue;
    }
    if (e.kind === 'charge' && e.task.recovered) walkedRecovery = true;
    if (e.amount === undefined) {
      // A failed task whose price is unknown is charged and refunded: when both fall after the
      // anchor it changes nothing in the end. A pending or completed one leaves the figure
      // unknown, and so does a refund whose charge the anchor's figure already holds.
      const charge = chargeOf.get(e.task);
      if (e.kind === 'charge' ? e.task.status !== 'failed' : !charge || charge.to <= anchoredTo)
        missing++;
      continue;
    }
    value += e.kind === 'charge' ? -e.amount : e.amount;
    history.push({
      balance: value,
      atMs: e.to,
      kind: e.kind,
      taskId: e.task.taskId,
      change: e.kind === 'charge' ? -e.amount : e.amount,
    });
  }
  while (clean[ci]) {
    const o = clean[ci++]!;
    adjust(o.balance, o.to, null);
    reanchor(o);
  }

  const lost = input.unresolvedSentMs.filter((t) => !anchor || t > anchor.from).length;
  // A recovered charge the newest figure does not surely hold: counted once, but approximate
  // until the upstream states a newer balance.
  const recovered = anchor
    ? events.filter((e) => e.kind === 'charge' && e.task.recovered && e.to + m > anchor.from - m)
        .length
    : 0;
  let note: string | null = null;
  if (!anchor)
    note =
      'Your tasks so far were charged at overlapping moments, so Kiln cannot tell their order: this is the ledger from the first figure the upstream stated, and the next task on its own makes it exact.';
  else if (missing > 0)
    note = `The price of ${missing === 1 ? 'a task' : `${missing} tasks`} under way is not known yet; the balance is exact again when ${missing === 1 ? 'it completes' : 'they complete'}.`;
  else if (lost > 0)
    note = `Kiln lost the answer to ${lost === 1 ? 'a create' : `${lost} creates`} (a restart or a time-out), so a charge it cannot see may have happened; the next task makes the balance exact again.`;
  else if (recovered > 0)
    note = `${recovered === 1 ? 'A create was' : `${recovered} creates were`} answered again after a restart: each is counted once, but when its charge happened is not known exactly, so the balance is approximate until the upstream states a newer one (the next task on its own).`;
  const through = (statedMs: number) => Math.max(statedMs, ...history.map((h) => h.atMs));
  if (!anchor) {
    // Not exact: the ledger from the first figure the upstream stated, whose place among the
    // charges around it is not known.
    return {
      balance: value,
      asOfMs: first.to,
      throughMs: through(first.to),
      exact: false,
      note,
      history,
    };
  }
  return {
    balance: value,
    asOfMs: anchor.to,
    throughMs: through(anchor.to),
    exact: missing === 0 && lost === 0 && recovered === 0,
    note,
    history,
  };
}
