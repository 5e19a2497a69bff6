import { describe, expect, it } from 'vitest';
import {
  balanceChart,
  chartSummary,
  cleanSamples,
  scaleLinear,
  type ChartBox,
} from './chart-scale.ts';

const BOX: ChartBox = { width: 600, height: 120, padY: 10 };
const pt = (balance: number, learned_ms: number) => ({ balance, learned_ms });

describe('scaleLinear', () => {
  it('maps a domain onto a range, inverted ranges too', () => {
    const s = scaleLinear(0, 10, 0, 100);
    expect(s(0)).toBe(0);
    expect(s(5)).toBe(50);
    expect(s(10)).toBe(100);
    const inv = scaleLinear(900, 1000, 110, 10);
    expect(inv(1000)).toBe(10);
    expect(inv(900)).toBe(110);
    expect(inv(950)).toBe(60);
  });

  it('maps a zero-width domain to the middle, or a given fallback', () => {
    expect(scaleLinear(5, 5, 0, 100)(5)).toBe(50);
    expect(scaleLinear(5, 5, 0, 100, 100)(123)).toBe(100);
  });
});

describe('cleanSamples', () => {
  it('drops non-finite points and sorts by time, stable for ties', () => {
    const out = cleanSamples([
      pt(3, 30),
      pt(Number.NaN, 5),
      pt(1, 10),
      pt(2, 10),
      pt(4, Number.POSITIVE_INFINITY),
    ]);
    expect(out).toEqual([pt(1, 10), pt(2, 10), pt(3, 30)]);
  });
});

describe('balanceChart', () => {
  it('draws nothing for no points', () => {
    expect(balanceChart([], BOX)).toBeNull();
    expect(balanceChart([pt(Number.NaN, 1)], BOX)).toBeNull();
  });

  it('draws one point as a flat line across, at mid-height', () => {
    const m = balanceChart([pt(990, 1_000)], BOX)!;
    expect(m.count).toBe(1);
    expect(m.line).toBe('M0 60 H600');
    expect(m.area).toBe('M0 60 H600 V120 H0 Z');
    expect(m.dots).toEqual([{ x: 600, y: 60, balance: 990, learned_ms: 1_000 }]);
    expect(m.minY).toBe(60);
    expect(m.maxY).toBe(60);
    expect([m.first, m.last, m.minBalance, m.maxBalance]).toEqual([990, 990, 990, 990]);
  });

  it('draws steps in time: max at the top pad, min at the bottom pad', () => {
    const m = balanceChart([pt(1000, 0), pt(990, 1_000), pt(960, 4_000)], BOX)!;
    expect(m.dots.map((d) => [d.x, d.y])).toEqual([
      [0, 10],
      [150, 35],
      [600, 110],
    ]);
    expect(m.line).toBe('M0 10 H150 V35 H600 V110 H600');
    expect(m.area.startsWith(m.line)).toBe(true);
    expect(m.area.endsWith('V120 H0 Z')).toBe(true);
    expect(m.maxY).toBe(10);
    expect(m.minY).toBe(110);
    expect([m.firstMs, m.lastMs, m.first, m.last]).toEqual([0, 4_000, 1000, 960]);
  });

  it('handles a rise (a top-up) as well as falls', () => {
    const m = balanceChart([pt(100, 0), pt(50, 1), pt(500, 2)], BOX)!;
    expect(m.maxBalance).toBe(500);
    expect(m.minBalance).toBe(50);
    expect(m.dots.map((d) => d.y)).toEqual([98.89, 110, 10]);
  });

  it('keeps a constant balance flat at mid-height', () => {
    const m = balanceChart([pt(500, 0), pt(500, 10)], BOX)!;
    expect(m.dots.map((d) => d.y)).toEqual([60, 60]);
    expect(m.line).toBe('M0 60 H600 V60 H600');
  });

  it('spreads points evenly when they all share one time', () => {
    const m = balanceChart([pt(30, 5), pt(20, 5), pt(10, 5)], BOX)!;
    expect(m.dots.map((d) => d.x)).toEqual([0, 300, 600]);
  });

  it('sorts unsorted input and rounds coordinates', () => {
    const m = balanceChart([pt(1, 3), pt(3, 0), pt(2, 1)], { width: 100, height: 30, padY: 0 })!;
    expect(m.dots.map((d) => d.balance)).toEqual([3, 2, 1]);
    expect(m.dots.map((d) => d.x)).toEqual([0, 33.33, 100]);
    for (const d of m.dots) {
      expect(d.x).toBeGreaterThanOrEqual(0);
      expect(d.x).toBeLessThanOrEqual(100);
    }
  });

  it('stays within the box for many points', () => {
    const many = Array.from({ length: 500 }, (_, i) => pt(1000 - ((i * 37) % 300), i * 1000));
    const m = balanceChart(many, BOX)!;
    expect(m.count).toBe(500);
    for (const d of m.dots) {
      expect(d.x).toBeGreaterThanOrEqual(0);
      expect(d.x).toBeLessThanOrEqual(BOX.width);
      expect(d.y).toBeGreaterThanOrEqual(BOX.padY);
      expect(d.y).toBeLessThanOrEqual(BOX.height - BOX.padY);
    }
    expect(m.line).not.toMatch(/NaN|Infinity/);
  });
});

describe('chartSummary', () => {
  const date = (ms: number) => `t${ms}`;
  it('says when there is nothing', () => {
    expect(chartSummary([])).toBe('No balance changes yet');
  });
  it('summarises one point', () => {
    expect(chartSummary([pt(990, 1)], String, date)).toBe('Balance 990, one change, on t1');
  });
  it('summarises many points: first, last, count, span, extremes', () => {
    expect(chartSummary([pt(960, 9), pt(1000, 1), pt(990, 5)], String, date)).toBe(
      'Balance from 1000 to 960 over 3 changes, t1 to t9; lowest 960, highest 1000',
    );
  });
});
