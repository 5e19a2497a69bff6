import type { Credits } from '../../../contract/index.ts';
import { formatDateTime, formatNumber, formatTime } from '../../lib/entry-format.ts';

/**
 * How the balance reads wherever it is shown (decision 0100): the figure in the page's number
 * format, "about" when Kiln cannot know it exactly, and always *as of* when it was true (Kiln
 * cannot see credits spent outside it until the upstream states a balance again). Pure: the
 * formats are passed in.
 */
export interface BalanceWords {
  /** "990", "≈ 990", or null when no balance is known. */
  figure: string | null;
  /** "as of 14:02" (or with the date when not today); null when no balance is known. */
  asOf: string | null;
  /** The chip's name for screen readers. */
  label: string;
  /** Where the figure comes from and what it cannot know. */
  source: string;
  /** The reason it is not exact (when it is not), then `source`: the chip's title. */
  detail: string;
}

interface Formats {
  number: (n: number) => string;
  time: (ms: number) => string;
  dateTime: (ms: number) => string;
}

/** The page's formats (one number format everywhere), for the balance's words. */
export const BALANCE_FORMATS: Formats = {
  number: formatNumber,
  time: formatTime,
  dateTime: formatDateTime,
};

/** "14:02" when `ms` falls on the same local day as `nowMs`, else "5 Jan 2025, 14:02". */
export function whenWords(ms: number, nowMs: number, f: Pick<Formats, 'time' | 'dateTime'>) {
  return new Date(ms).toDateString() === new Date(nowMs).toDateString()
    ? f.time(ms)
    : f.dateTime(ms);
}

/** Before any balance: what Kiln is waiting for. The API has no balance call. */
export const BALANCE_UNKNOWN =
  'Kiln learns the balance from the upstream’s answers (the API has no balance call): it appears after your first task finishes, or a create refused for want of credits.';

export function balanceWords(
  credits: Pick<Credits, 'balance' | 'learned_ms' | 'as_of_ms' | 'exact' | 'note'> | undefined,
  nowMs: number,
  f: Formats,
): BalanceWords {
  if (credits?.balance == null)
    return {
      figure: null,
      asOf: null,
      label: 'Credits: known after your first task',
      source: BALANCE_UNKNOWN,
      detail: BALANCE_UNKNOWN,
    };
  const about = credits.exact === false;
  const number = f.number(credits.balance);
  const asOfMs = credits.as_of_ms ?? credits.learned_ms;
  const asOf = asOfMs == null ? null : `as of ${whenWords(asOfMs, nowMs, f)}`;
  const stated = credits.learned_ms == null ? null : whenWords(credits.learned_ms, nowMs, f);
  const since =
    stated === null
      ? ''
      : asOfMs !== credits.learned_ms
        ? `The upstream stated the balance at ${stated}; Kiln counted every charge and refund made through it since. `
        : `The upstream stated it at ${stated}. `;
  const outside = `Credits spent outside Kiln (another app with this key) are not in it until the upstream states a balance again, after your next task.`;
  return {
    figure: `${about ? '≈ ' : ''}${number}`,
    asOf,
    label: `Credits: ${about ? 'about ' : ''}${number}${asOf ? `, ${asOf}` : ''}`,
    source: `${since}${outside}`,
    detail: `${about && credits.note ? `${credits.note} ` : ''}${since}${outside}`,
  };
}
