import { Link } from '../../ui/link.tsx';
import { useCredits } from '../../api/account.ts';
import { formatDateTime, formatNumber, formatTime } from '../../lib/entry-format.ts';
import { balanceWords } from './balance-words.ts';

/** The page's formats, for the balance's words. */
export const BALANCE_FORMATS = {
  number: formatNumber,
  time: formatTime,
  dateTime: formatDateTime,
};

/**
 * The balance in the header, as Kiln derives it (decisions 0076, 0100): the figure ("≈" when Kiln
 * cannot know it exactly) and as of when it was true, the reason in its title; before the first
 * figure, when it appears.
 */
export function BalanceChip() {
  const credits = useCredits();
  const words = balanceWords(credits.data, Date.now(), BALANCE_FORMATS);
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
          <span className="muted small">Balance after your first task</span>
        ) : (
          <>
            {words.figure} <span className="muted small">credits</span>
          </>
        )}
      </span>
      {words.asOf && (
        <>
          <span className="muted small balance-chip__dot"> · </span>
          <span className="muted small balance-chip__asof" data-testid="balance-as-of">
            {words.asOf}
          </span>
        </>
      )}
    </Link>
  );
}
