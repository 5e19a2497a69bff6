import type { LibraryEntry } from '../../../contract/index.ts';
import { formatAmount } from '../../lib/entry-format.ts';

type CreditTone = 'spent' | 'refunded' | 'pending' | 'unknown';

export interface CreditCell {
  text: string;
  tone: CreditTone;
}

/**
 * What a task cost, for the credits table: the credits consumed; "pending" while it runs;
 * for a failed task the refund ("+30 refunded" when the price is known, else "0 (refunded)").
 * `price` is the model's credits per task from the model listing, when known.
 */
export function creditCell(
  entry: Pick<LibraryEntry, 'status' | 'credits_consumed' | 'cost'>,
  price: number | null | undefined,
  num: (n: number) => string = String,
): CreditCell {
  if (entry.cost) return vendorCell(entry.status, entry.cost);
  const consumed = entry.credits_consumed;
  switch (entry.status) {
    case 'pending':
      return { text: 'pending', tone: 'pending' };
    case 'failed': {
      const refund = consumed != null && consumed > 0 ? consumed : price;
      return refund != null && refund > 0
        ? { text: `+${num(refund)} refunded`, tone: 'refunded' }
        : { text: '0 (refunded)', tone: 'refunded' };
    }
    default:
      return consumed == null
        ? { text: '—', tone: 'unknown' }
        : { text: num(consumed), tone: 'spent' };
  }
}

/**
 * A vendor's task (decision 0117): what it cost so far in the vendor's own unit ("$0.02",
 * "20 credits": a Meshy text task whose refine failed keeps its preview's), "0 (refunded)".
 */
function vendorCell(status: string, cost: NonNullable<LibraryEntry['cost']>): CreditCell {
  if (status === 'pending') return { text: 'pending', tone: 'pending' };
  if (cost.amount > 0) return { text: formatAmount(cost.amount, cost.unit), tone: 'spent' };
  return {
    text: status === 'failed' ? '0 (refunded)' : formatAmount(0, cost.unit),
    tone: 'refunded',
  };
}
