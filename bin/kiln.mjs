#!/usr/bin/env node
// `kiln`, Kiln's command line (src/cli/README.md). Node 20 runs no TypeScript by itself: the CLI
// runs from its bundle (scripts/node-bundle.mjs, made when missing or stale; decision 0130), with
// stack traces in its sources, so the command works from any folder (`npm link`, `npx kiln`, or
// this file's path).
import { pathToFileURL } from 'node:url';
import { entryBundle } from '../scripts/node-bundle.mjs';

process.setSourceMapsEnabled(true);
const { main } = await import(pathToFileURL(await entryBundle('src/cli/main.ts')).href);
// Pipes and terminals are written synchronously on Linux and macOS: nothing is cut short.
process.exit(await main(process.argv.slice(2)));
