#!/usr/bin/env node
// `npm run serve|mock|mcp`: runs a Kiln entry point (a path from the repository root) in this
// process from its bundle, made first when stale (node-bundle.mjs, decision 0130), with stack
// traces in its sources. Usage: node scripts/run.mjs src/server/main.ts
import { pathToFileURL } from 'node:url';
import { entryBundle } from './node-bundle.mjs';

const [entry] = process.argv.splice(2, 1);
if (!entry) {
  console.error('usage: node scripts/run.mjs src/<part>/main.ts');
  process.exit(2);
}
process.setSourceMapsEnabled(true);
await import(pathToFileURL(await entryBundle(entry)).href);
