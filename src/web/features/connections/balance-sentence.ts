import type { ProviderBalanceRecord } from '../../api/providers.ts';
import { formatAmount, formatTime } from '../../lib/entry-format.ts';

/** A balance as the vendor stated it, and as of when; or the vendor's reason there is none. */
export function balanceSentence(b: ProviderBalanceRecord): string {
  if (b.amount === null) return b.note ?? 'No balance can be read with this key.';
  const frozen = b.frozen ? ` (${formatAmount(b.frozen, b.unit)} held for tasks under way)` : '';
  return `${formatAmount(b.amount, b.unit)}${frozen}, as of ${formatTime(b.as_of_ms)}`;
}
