#!/usr/bin/env node
// `kiln`, Kiln's command line (src/cli/README.md). Node 20 runs no TypeScript by itself: tsx is
// registered as this process's loader, with the repository's own tsconfig, so the command works
// from any folder (`npm link`, `npx kiln`, or this file's path).
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../src/cli/main.ts');
// Pipes and terminals are written synchronously on Linux and macOS: nothing is cut short.
process.exit(await main(process.argv.slice(2)));
