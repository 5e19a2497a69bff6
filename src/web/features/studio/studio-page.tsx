import { useQueries } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { progressOf } from '../../../contract/index.ts';
import { useClient, taskQuery } from '../../api/tasks.ts';
import { useKeyScope } from '../../api/query-keys.ts';
import { useLibrary } from '../../api/library.ts';
import { draftVersion } from '../../lib/draft.ts';
import { useStore } from '../../lib/store.ts';
import { SyncWaitCard, TaskCard, TaskDetail, type SyncWait } from '../tasks/index.ts';
import { GenerateForm } from '../generate/index.ts';
import './studio.css';

const RECENT = 8;

/** The tab title carries the progress of running tasks: "42% · Kiln", "2 running · 35% · Kiln". */
function useTabTitle(pendingIds: string[]) {
  const client = useClient();
  const scope = useKeyScope();
  const results = useQueries({ queries: pendingIds.map((id) => taskQuery(client, scope, id)) });
  const running = results.map((r) => r.data).filter((t) => t?.status === 'pending');
  const pct = running.length ? Math.min(...running.map((t) => (t ? progressOf(t) : 0))) : null;
  useEffect(() => {
    document.title =
      pct === null
        ? 'Studio · Kiln'
        : running.length > 1
          ? `${running.length} running · ${pct}% · Kiln`
          : `${pct}% · Kiln`;
  }, [pct, running.length]);
}

export function StudioPage() {
  const library = useLibrary();
  const recent = (library.data?.pages[0]?.data ?? []).slice(0, RECENT);
  const [selected, setSelected] = useState<string | null>(null);
  // The task just created gets focus; a sync create shows at once, while its request is open.
  const [created, setCreated] = useState<string | null>(null);
  const [waiting, setWaiting] = useState<SyncWait | null>(null);
  // "Edit and try again" hands the form a draft: the form starts again with it.
  const formVersion = useStore(draftVersion);
  const focus = selected ?? recent[0]?.id ?? null;
  useTabTitle(recent.filter((e) => e.status === 'pending').map((e) => e.id));

  return (
    <main className="page studio">
      <h1 className="visually-hidden">Studio</h1>
      <div className="studio-grid">
        <GenerateForm
          key={formVersion}
          onCreated={(t) => {
            setWaiting(null);
            setSelected(t.id);
            setCreated(t.id);
          }}
          onWaiting={setWaiting}
        />
        <div className="studio-side">
          {waiting ? (
            <SyncWaitCard wait={waiting} />
          ) : focus ? (
            <TaskDetail key={focus} id={focus} focusOnShow={focus === created} />
          ) : (
            <div className="card empty-result">
              <h2>Your model appears here</h2>
              <p className="muted">
                Choose a model, add a photo or a prompt, and press Generate. You can start several
                at once.
              </p>
            </div>
          )}
          {recent.length > 0 && (
            <section aria-labelledby="recent-title" className="recent">
              <h2 id="recent-title">Recent tasks</h2>
              <ul className="task-list">
                {recent.map((e) => (
                  <TaskCard
                    key={e.id}
                    entry={e}
                    selected={e.id === focus}
                    onSelect={() => setSelected(e.id)}
                  />
                ))}
              </ul>
            </section>
          )}
          {library.isError && <p className="error">The library could not be loaded.</p>}
        </div>
      </div>
    </main>
  );
}
