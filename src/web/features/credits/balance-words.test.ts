import { describe, expect, it } from 'vitest';
import { balanceWords, whenWords } from './balance-words.ts';

const f = {
  number: (n: number) => n.toLocaleString('en-US'),
  time: (ms: number) => `t${ms}`,
  dateTime: (ms: number) => `d${ms}`,
};
const NOW = new Date(2026, 10, 28, 18, 0).getTime();
const EARLIER_TODAY = new Date(2026, 10, 28, 14, 2).getTime();
const YESTERDAY = new Date(2026, 10, 27, 14, 2).getTime();

describe('the balance says when it was true', () => {
  it('says a time today, and the date too on another day', () => {
    expect(whenWords(EARLIER_TODAY, NOW, f)).toBe(`t${EARLIER_TODAY}`);
    expect(whenWords(YESTERDAY, NOW, f)).toBe(`d${YESTERDAY}`);
  });

  it('shows an exact figure as of its time, in the page’s number format, and what it cannot know', () => {
    const w = balanceWords(
      { balance: 99_180, learned_ms: EARLIER_TODAY, as_of_ms: EARLIER_TODAY, exact: true },
      NOW,
      f,
    );
    expect(w.figure).toBe('99,180');
    expect(w.asOf).toBe(`as of t${EARLIER_TODAY}`);
    expect(w.label).toBe(`Credits: 99,180, as of t${EARLIER_TODAY}`);
    expect(w.detail).toContain(`The upstream stated it at t${EARLIER_TODAY}.`);
    expect(w.detail).toContain('Credits spent outside Kiln');
  });

  it('as of Kiln’s last charge when one came after the statement, naming both', () => {
    const w = balanceWords(
      { balance: 960, learned_ms: YESTERDAY, as_of_ms: EARLIER_TODAY, exact: true },
      NOW,
      f,
    );
    expect(w.asOf).toBe(`as of t${EARLIER_TODAY}`);
    expect(w.detail).toMatch(/^The upstream stated the balance at d\d+; Kiln counted every charge/);
  });

  it('says "about" and the reason when it is not exact', () => {
    const w = balanceWords(
      { balance: 1000, learned_ms: 5, as_of_ms: 5, exact: false, note: 'A create is on the way.' },
      NOW,
      f,
    );
    expect(w.figure).toBe('≈ 1,000');
    expect(w.label).toMatch(/^Credits: about 1,000, as of /);
    expect(w.detail).toMatch(/^A create is on the way\. /);
  });

  it('before any balance, says when it appears instead of a dash', () => {
    const w = balanceWords({ balance: null, learned_ms: null }, NOW, f);
    expect(w).toMatchObject({ figure: null, asOf: null });
    expect(w.label).toBe('Credits: known after your first task');
    expect(w.detail).toMatch(/appears after your first task finishes/);
    expect(balanceWords(undefined, NOW, f).figure).toBeNull();
  });
});
