import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = process.env.KILN_DEV_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: true, assetsInlineLimit: 0 },
  // `npm run dev` serves the SPA with hot reload and sends API calls to a running `npm run serve`.
  server: { proxy: { '/api': api, '/mock': api } },
});
