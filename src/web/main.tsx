// Before React: /viewer starts its downloads and WebGL from here (see early.ts).
import './early.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { Providers } from './app/providers.tsx';
import './app/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('Kiln: #root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <Providers>
      <App />
    </Providers>
  </StrictMode>,
);
