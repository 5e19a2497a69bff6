import { useEffect, useState } from 'react';

interface Info {
  mode: 'mock' | 'upstream';
  demoKey?: string;
}

/** The shell until the studio lands: says what Kiln is and which upstream it drives. */
export function App() {
  const [info, setInfo] = useState<Info | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const ac = new AbortController();
    fetch('/api/info', { signal: ac.signal })
      .then((r) =>
        r.ok ? (r.json() as Promise<Info>) : Promise.reject(new Error(String(r.status))),
      )
      .then(setInfo)
      .catch(() => {
        if (!ac.signal.aborted) setFailed(true);
      });
    return () => ac.abort();
  }, []);

  return (
    <div className="shell">
      <header className="shell-header">
        <span className="brand">Kiln</span>
        {info?.mode === 'mock' && <span className="badge">Demo upstream</span>}
      </header>
      <main className="shell-main">
        <h1>Image to 3D, in your browser</h1>
        <p>
          Drop a photo, a few views of one object, or type a prompt; Kiln turns it into a GLB model
          you can inspect, download and find again.
        </p>
        <p role="status" data-testid="server-status">
          {failed
            ? 'The Kiln server did not answer.'
            : info === null
              ? 'Connecting to the Kiln server…'
              : info.mode === 'mock'
                ? `Connected. Mock mode: try the demo key ${info.demoKey ?? ''}.`
                : 'Connected to the upstream API.'}
        </p>
      </main>
    </div>
  );
}
