// TEMPORARY visual check for the viewer; deleted after use.
import { StrictMode, Suspense, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { LazyModelViewer } from './index.ts';
import '../../app/app.css';

const params = new URLSearchParams(location.search);
const first = params.get('glb') ?? '/chair.glb';

function Preview() {
  const [url, setUrl] = useState(first);
  return (
    <main className="page">
      <h1>Viewer preview</h1>
      <div className="card" style={{ padding: '0.75rem' }}>
        <Suspense fallback={<p>Loading the viewer…</p>}>
          <LazyModelViewer url={url} label="3D model of a chair" />
        </Suspense>
      </div>
      <p>
        <button
          type="button"
          id="swap"
          onClick={() => setUrl(params.get('next') ?? '/chair-draco.glb')}
        >
          Swap model
        </button>
      </p>
    </main>
  );
}

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <Preview />
    </StrictMode>,
  );
