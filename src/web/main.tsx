// The entry. First what must not wait for the app (early.ts: /viewer's downloads and WebGL, a share
// page's first frame), then the app itself (boot.tsx), when early.ts says it may come.
import { appMayStart } from './early.ts';
// In the entry, so every page (a share page's server-drawn first look too) has it from the start.
import './app/app.css';

void appMayStart.then(() => import('./boot.tsx'));
