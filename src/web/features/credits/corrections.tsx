import type { BalancePoint, CorrectionCause } from '../../../contract/index.ts';
import { formatDateTime, formatNumber, isoDateTime } from '../../lib/entry-format.ts';

/** Why the upstream's figure and Kiln's ledger differed, in the artist's words (decision 0091). */
const CORRECTION_WORDS: Record<CorrectionCause, string> = {
  outside: 'credits were added or spent outside Kiln (a top-up, or this key used in another app).',
  overlap:
    'your tasks were charged at overlapping moments, so Kiln could not tell their order and its figure was an estimate.',
  recovery:
    'a create answered again after a restart was counted at a guessed moment; the upstream’s figure settles it.',
};

/** "+60" or "−60": a correction's size, signed, in the page's number format. */
function signed(n: number): string {
  return `${n > 0 ? '+' : '−'}${formatNumber(Math.abs(n))}`;
}

/**
 * The corrections in the balance's history, each with both figures and its cause: a rise that
 * is not a refund is never shown as money that came in.
 */
export function Corrections({ history }: { history: readonly BalancePoint[] }) {
  const corrections = history.filter((p) => p.kind === 'correction' && p.correction);
  if (corrections.length === 0) return null;
  return (
    <section className="credits-corrections" aria-labelledby="credits-corrections-heading">
      <h3 id="credits-corrections-heading" className="credits-label">
        Corrections
      </h3>
      <ul>
        {corrections.map((p, i) => {
          const c = p.correction!;
          return (
            <li key={i}>
              <time dateTime={isoDateTime(p.learned_ms)}>{formatDateTime(p.learned_ms)}</time>: the
              upstream’s figure put the balance at <strong>{formatNumber(c.stated)}</strong> where
              Kiln’s ledger had {formatNumber(c.ledger)} ({signed(c.stated - c.ledger)}), because{' '}
              {CORRECTION_WORDS[c.cause]}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
