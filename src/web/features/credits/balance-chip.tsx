import { Link } from '../../ui/link.tsx';
import { useCredits } from '../../api/account.ts';
import { BALANCE_FORMATS, balanceWords } from './balance-words.ts';

/**
 * The balance in the header, as Kiln derives it (decisions 0076, 0100): the figure ("≈" when Kiln
 * cannot know it exactly) and as of when it was true, the reason in its title; before the first
 * figure, when it appears.
 */
export function BalanceChip() {
  const credits = useCredits();
  // "Today" is the day the answer came: the words stay what they were for that answer.
  const words = balanceWords(credits.data, credits.dataUpdatedAt, BALANCE_FORMATS);
  return (
    <Link
      href="/credits"
      className="balance-chip"
      data-testid="balance"
      aria-label={words.label}
      title={words.detail}
    >
      <span className="balance-chip__figure">
        <span aria-hidden="true">◆</span>{' '}
        {words.figure === null ? (
          <span className="muted small">Balance</span>
        ) : (
          <>
            {words.figure} <span className="muted small">credits</span>
          </>
        )}
      </span>
      {/* On a phone, under the figure: as of when it was true, or when it appears. */}
      <span className="muted small balance-chip__dot"> · </span>
      <span className="muted small balance-chip__asof" data-testid="balance-as-of">
        {words.asOf ?? 'after your first task'}
      </span>
    </Link>
  );
}
