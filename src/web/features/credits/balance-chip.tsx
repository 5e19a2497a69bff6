import { Link } from '../../ui/link.tsx';
import { useCredits } from '../../api/account.ts';

/**
 * The balance in the header, as Kiln derives it (decision 0076): exact, or "about" with the
 * reason in its title when Kiln cannot know the exact figure yet.
 */
export function BalanceChip() {
  const credits = useCredits();
  const balance = credits.data?.balance;
  const exact = credits.data?.exact !== false;
  const about = balance != null && !exact;
  return (
    <Link
      href="/credits"
      className="balance-chip"
      data-testid="balance"
      aria-label={
        balance == null ? 'Credits: not known yet' : `Credits: ${about ? 'about ' : ''}${balance}`
      }
      title={
        balance == null
          ? 'Kiln learns the balance from the upstream: from the first task that finishes, or a create refused for want of credits.'
          : about && credits.data?.note
            ? credits.data.note
            : undefined
      }
    >
      <span aria-hidden="true">◆</span> {about ? '≈ ' : ''}
      {balance == null ? '—' : balance.toLocaleString()}{' '}
      <span className="muted small">credits</span>
    </Link>
  );
}
