import type { LibraryEntry } from '../../../contract/index.ts';

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
  entry: Pick<LibraryEntry, 'status' | 'credits_consumed'>,
  price: number | null | undefined,
  num: (n: number) => string = String,
): CreditCell {
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
