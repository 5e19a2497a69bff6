import { useId } from 'react';
import type { BalancePoint } from '../../../contract/index.ts';
import {
  formatDate,
  formatDateTime,
  formatNumber,
  formatTime,
  isoDateTime,
} from '../../lib/entry-format.ts';
import { balanceChart, chartSummary, cleanSamples, type ChartBox } from './chart-scale.ts';

/** What each point of the history is, in words (a correction is never called a credit). */
const POINT_WORDS: Record<NonNullable<BalancePoint['kind']>, string> = {
  stated: 'stated by the upstream',
  charge: 'charge',
  refund: 'refund',
  correction: 'correction to the upstream’s figure',
};

const BOX: ChartBox = { width: 600, height: 120, padY: 14 };
/** Past this many points the dots would crowd the line; the step line alone says it. */
const MAX_DOTS = 60;

/**
 * The balance over time as an inline SVG step chart (no chart library). The SVG is one image
 * with a summary for assistive technology; a visually hidden table carries every point.
 * It stretches to its container's width (viewBox + preserveAspectRatio none) and the labels
 * are HTML, so text keeps its size at 390 px as at 1440 px.
 */
export function BalanceChart({ history }: { history: readonly BalancePoint[] }) {
  const descId = useId();
  const model = balanceChart(history, BOX);
  const summary = chartSummary(history, formatNumber, formatDateTime);

  if (!model) {
    return (
      <div className="balance-chart balance-chart-empty">
        <p className="muted">No balance changes yet. The chart fills in as you make models.</p>
      </div>
    );
  }

  const pct = (y: number) => `${(y / BOX.height) * 100}%`;
  const flat = model.minBalance === model.maxBalance;
  // Within one day the times tell the changes apart; across days the dates do.
  const sameDay = formatDate(model.firstMs) === formatDate(model.lastMs);
  const firstLabel = sameDay ? formatDateTime(model.firstMs) : formatDate(model.firstMs);
  const lastLabel = sameDay ? formatTime(model.lastMs) : formatDate(model.lastMs);
  const longest = [model.maxBalance, model.minBalance]
    .map(formatNumber)
    .reduce((a, b) => (b.length > a.length ? b : a));

  return (
    <figure className="balance-chart">
      <div className="chart-frame">
        <div className="chart-y" aria-hidden="true">
          {/* In flow but invisible: sizes the column to the longest label. */}
          <span className="chart-y-sizer">{longest}</span>
          <span className="chart-y-label" style={{ top: pct(model.maxY) }}>
            {formatNumber(model.maxBalance)}
          </span>
          {!flat && (
            <span className="chart-y-label" style={{ top: pct(model.minY) }}>
              {formatNumber(model.minBalance)}
            </span>
          )}
        </div>
        <svg
          className="chart-plot"
          viewBox={`0 0 ${BOX.width} ${BOX.height}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={summary}
          aria-describedby={descId}
          focusable="false"
        >
          <title>{summary}</title>
          <desc id={descId}>
            Step chart of the credit balance after each change; the table below lists every point.
          </desc>
          <line className="chart-grid" x1={0} x2={BOX.width} y1={model.maxY} y2={model.maxY} />
          {!flat && (
            <line className="chart-grid" x1={0} x2={BOX.width} y1={model.minY} y2={model.minY} />
          )}
          <path className="chart-area" d={model.area} />
          <path className="chart-line" d={model.line} />
          {model.dots.length <= MAX_DOTS &&
            model.dots.map((d, i) => (
              // A zero-length line with a round cap: a dot that stays round when the
              // viewBox stretches (a <circle> would turn into an ellipse).
              <line key={i} className="chart-dot" x1={d.x} x2={d.x} y1={d.y} y2={d.y} />
            ))}
        </svg>
        <div className="chart-x" aria-hidden="true">
          <span>{firstLabel}</span>
          {model.count > 1 && model.lastMs !== model.firstMs && <span>{lastLabel}</span>}
        </div>
      </div>
      <figcaption className="muted small">
        {model.count === 1
          ? 'One change so far.'
          : `${formatNumber(model.count)} changes · lowest ${formatNumber(model.minBalance)} · highest ${formatNumber(model.maxBalance)}`}
      </figcaption>
      <div className="visually-hidden">
        <table>
          <caption>Balance history, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Balance</th>
              <th scope="col">What</th>
            </tr>
          </thead>
          <tbody>
            {cleanSamples(history).map((p, i) => (
              <tr key={i}>
                <td>
                  <time dateTime={isoDateTime(p.learned_ms)}>{formatDateTime(p.learned_ms)}</time>
                </td>
                <td>{formatNumber(p.balance)}</td>
                <td>{p.kind ? POINT_WORDS[p.kind] : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
