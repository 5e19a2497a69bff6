import { Link } from '../../ui/link.tsx';
import { useCredits } from '../../api/credits-query.ts';

/** The balance in the header: the last one any response showed. */
export function BalanceChip() {
  const credits = useCredits();
  const balance = credits.data?.balance;
  return (
    <Link
      href="/credits"
      className="balance-chip"
      data-testid="balance"
      aria-label={balance == null ? 'Credits: not known yet' : `Credits: ${balance}`}
    >
      <span aria-hidden="true">◆</span> {balance == null ? '—' : balance.toLocaleString()}{' '}
      <span className="muted small">credits</span>
    </Link>
  );
}
