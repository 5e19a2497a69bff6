import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { Providers } from './app/providers.tsx';
import { preloadViewer } from './features/viewer/preload.ts';
import './app/app.css';

preloadViewer(location);

const root = document.getElementById('root');
if (!root) throw new Error('Kiln: #root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <Providers>
      <App />
    </Providers>
  </StrictMode>,
);
