import { useEffect, useMemo } from 'react';
import { LoadMore } from '../../ui/load-more.tsx';
import type { Credits, LibraryEntry } from '../../../contract/index.ts';
import { Link } from '../../ui/link.tsx';
import { QueryState } from '../../ui/query-state.tsx';
import {
  formatDate,
  formatDateTime,
  formatNumber,
  formatTime,
  isoDateTime,
  nameOf,
  madeFromOf,
  titleOf,
} from '../../lib/entry-format.ts';
import { useLibrary } from '../../api/library.ts';
import { useModels } from '../../api/tasks.ts';
import { useCredits } from '../../api/account.ts';
import { StatusBadge } from '../../ui/status-badge.tsx';
import { BalanceChart } from './balance-chart.tsx';
import { BALANCE_FORMATS, BALANCE_UNKNOWN, balanceWords } from './balance-words.ts';
import { Corrections } from './corrections.tsx';
import { creditCell } from './credit-cell.ts';
import './credits.css';

/** The balance, how it moved, and what each task cost. */
export default function CreditsPage() {
  useEffect(() => {
    document.title = 'Credits · Kiln';
  }, []);

  return (
    <main className="page credits-page">
      <h1>Credits</h1>
      <BalanceSection />
      <TaskCostsSection />
    </main>
  );
}

function BalanceSection() {
  const credits = useCredits();

  return (
    <QueryState
      query={credits}
      loading="Loading your balance…"
      failed="The balance could not be loaded"
      className="credits-message"
    >
      {() =>
        credits.data && <BalanceCards credits={credits.data} answeredMs={credits.dataUpdatedAt} />
      }
    </QueryState>
  );
}

function BalanceCards({ credits, answeredMs }: { credits: Credits; answeredMs: number }) {
  const { balance, history, note } = credits;
  const exact = credits.exact !== false;
  const asOfMs = credits.as_of_ms ?? credits.learned_ms;
  const words = balanceWords(credits, answeredMs, BALANCE_FORMATS);
  return (
    <div className="credits-top">
      <section className="card credits-balance" aria-labelledby="credits-balance-heading">
        <h2 id="credits-balance-heading" className="credits-label">
          Current balance
        </h2>
        {balance == null ? (
          <p className="credits-unknown">Not known yet. {BALANCE_UNKNOWN}</p>
        ) : (
          <>
            <p className="credits-amount">
              {!exact && <span className="credits-unit">about </span>}
              <span className="credits-number">{formatNumber(balance)}</span>{' '}
              <span className="credits-unit">credits</span>
            </p>
            {asOfMs != null && (
              <p className="small credits-asof" data-testid="credits-as-of">
                <strong>
                  As of <time dateTime={isoDateTime(asOfMs)}>{formatDateTime(asOfMs)}</time>.
                </strong>{' '}
                <span className="muted">{words.source}</span>
              </p>
            )}
            {note && <p className="small credits-inexact">{note}</p>}
          </>
        )}
        <p className="muted small credits-note">
          Kiln learns the balance from the upstream’s answers (each finished task says the balance
          right after its charge) and keeps the ledger of every charge and refund made through Kiln
          since.
        </p>
      </section>
      <section className="card credits-chart" aria-labelledby="credits-chart-heading">
        <h2 id="credits-chart-heading" className="credits-label">
          Balance over time
        </h2>
        <BalanceChart history={history} />
        <Corrections history={history} />
      </section>
    </div>
  );
}

function TaskCostsSection() {
  const library = useLibrary();
  const models = useModels();

  const prices = useMemo(() => {
    const map = new Map<string, number>();
    for (const m of models.data?.models ?? []) if (m.credits != null) map.set(m.id, m.credits);
    return map;
  }, [models.data]);

  const entries = useMemo(() => {
    const seen = new Set<string>();
    const out: LibraryEntry[] = [];
    for (const page of library.data?.pages ?? [])
      for (const e of page.data) {
        if (seen.has(e.id)) continue;
        seen.add(e.id);
        out.push(e);
      }
    return out;
  }, [library.data]);

  return (
    <section className="credits-tasks" aria-labelledby="credits-tasks-heading">
      <h2 id="credits-tasks-heading">Per task</h2>
      <QueryState
        query={library}
        loading="Loading your tasks…"
        failed="The tasks could not be loaded"
        className="credits-message"
        empty={
          entries.length === 0 && (
            <p>
              No tasks yet. <Link href="/">Make your first model in the Studio</Link>; what it costs
              shows up here.
            </p>
          )
        }
      >
        {() => (
          <div
            className="credits-table-wrap card"
            role="region"
            aria-labelledby="credits-table-caption"
            tabIndex={0}
          >
            <table className="credits-table">
              <caption id="credits-table-caption">
                Credits per task, newest first
                {library.hasNextPage ? ` (${entries.length} loaded)` : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Task</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Credits
                  </th>
                  <th scope="col" className="num">
                    Balance after
                  </th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => {
                  const ms = entry.created * 1000;
                  const cell = creditCell(entry, prices.get(entry.model), formatNumber);
                  return (
                    <tr key={entry.id}>
                      <td data-label="Date">
                        <time dateTime={isoDateTime(ms)} className="credits-when">
                          <span>{formatDate(ms)}</span> <span>{formatTime(ms)}</span>
                        </time>
                      </td>
                      <td data-label="Task" className="credits-task">
                        <Link
                          href={`/tasks/${encodeURIComponent(entry.id)}`}
                          {...(nameOf(entry) ? { className: 'credits-name' } : {})}
                        >
                          {nameOf(entry) ? titleOf(entry) : entry.model}
                        </Link>
                        <span className="muted small credits-subject">
                          {' · '}
                          {nameOf(entry) ? `${entry.model} · ${madeFromOf(entry)}` : titleOf(entry)}
                        </span>
                      </td>
                      <td data-label="Status">
                        <StatusBadge entry={entry} />
                      </td>
                      <td data-label="Credits" className={`num credit-${cell.tone}`}>
                        {cell.text}
                      </td>
                      <td data-label="Balance after" className="num">
                        {entry.credits_remaining == null
                          ? '—'
                          : formatNumber(entry.credits_remaining)}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      <LoadMore library={library} className="credits-more" />
    </section>
  );
}
