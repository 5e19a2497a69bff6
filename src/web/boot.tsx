// The app: React, its providers and the pages. Asked for by main.tsx at once, or on a share page
// once its first frame is drawn (see early.ts).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { Providers } from './app/providers.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('Kiln: #root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <Providers>
      <App />
    </Providers>
  </StrictMode>,
);
