// Exact duplicate blocks in src/: runs of six or more identical lines (trimmed; blank lines and
// lines that are only brackets or comment marks do not count) found in two places. Issue 33: at
// most five may stand; scripts/duplicate-blocks.test.ts holds the line.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const MIN_LINES = 6;

export interface DuplicateBlock {
  a: string;
  b: string;
  lines: number;
}

interface Line {
  file: string;
  at: number;
  text: string;
}

const TRIVIAL = /^[\s{}()[\];,]*$|^\/\*\*?$|^\*\/$|^\*$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Import declarations (several files naming the same things is no repeated logic), as blank lines. */
const IMPORTS = /^(?:import|export)\b[^;]*?\bfrom\s+['"][^'"]+['"];?$/gms;

function meaningfulLines(root: string, file: string): Line[] {
  return readFileSync(file, 'utf8')
    .replace(IMPORTS, (m) => m.replace(/[^\n]/g, ''))
    .split('\n')
    .map((raw, i) => ({ file: relative(root, file), at: i + 1, text: raw.trim() }))
    .filter((l) => !TRIVIAL.test(l.text));
}

/** Every pair of places under `dir` sharing a run of MIN_LINES or more identical lines. */
export function duplicateBlocks(dir: string, root = dir): DuplicateBlock[] {
  const files = sourceFiles(dir).map((f) => meaningfulLines(root, f));
  const windows = new Map<string, { file: number; index: number }[]>();
  files.forEach((lines, file) => {
    for (let index = 0; index + MIN_LINES <= lines.length; index++) {
      const key = lines
        .slice(index, index + MIN_LINES)
        .map((l) => l.text)
        .join('\n');
      const list = windows.get(key) ?? [];
      list.push({ file, index });
      windows.set(key, list);
    }
  });
  // Pairs of places, each run reported once (at its first window).
  const seen = new Set<string>();
  const blocks: DuplicateBlock[] = [];
  for (const places of windows.values()) {
    if (places.length < 2) continue;
    for (let i = 0; i < places.length; i++)
      for (let j = i + 1; j < places.length; j++) {
        const p = places[i]!;
        const q = places[j]!;
        if (p.file === q.file && Math.abs(p.index - q.index) < MIN_LINES) continue;
        const before = `${p.file}:${p.index - 1}|${q.file}:${q.index - 1}`;
        const lp = files[p.file]!;
        const lq = files[q.file]!;
        const continues = seen.has(before);
        seen.add(`${p.file}:${p.index}|${q.file}:${q.index}`);
        if (continues) continue;
        let n = MIN_LINES;
        while (
          lp[p.index + n] &&
          lq[q.index + n] &&
          lp[p.index + n]!.text === lq[q.index + n]!.text
        )
          n++;
        blocks.push({
          a: `${lp[p.index]!.file}:${lp[p.index]!.at}`,
          b: `${lq[q.index]!.file}:${lq[q.index]!.at}`,
          lines: n,
        });
      }
  }
  return blocks;
}
