// The docs name only files that exist: every path or file name in backticks in a Markdown file
// (README.md, src/**/README.md, docs/**, bench/, fixtures/) and every relative Markdown link is
// checked against the work tree, so a moved or deleted file cannot leave a doc behind. A history
// (a decision record) names a file that is gone struck through: ~~`path`~~.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const SKIP = new Set(['node_modules', 'dist', 'test-results', 'playwright-report']);

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(join(root, dir))) {
    if (SKIP.has(name) || name.startsWith('.')) continue;
    const path = dir ? `${dir}/${name}` : name;
    if (statSync(join(root, path)).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

const tree = walk('');
const names = new Set(tree.map((p) => basename(p)));
const markdown = tree.filter((p) => p.endsWith('.md'));
const TOP = /^(?:src|e2e|bench|scripts|docs|fixtures|public)\//;
const CODE_FILE = /^[\w./-]+\.(?:ts|tsx|mjs|js|css|md|json|sql)$/;
const SOURCE = ['', '.ts', '.tsx', '.mjs', '.md'];

/**
 * A path git ignores (made by a script: `fixtures/viewer/`, `dist/`): a clean clone has none of
 * them yet, and a doc may still name where they go.
 */
function generated(path: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: root });
    return true;
  } catch {
    return false;
  }
}

/** What a Markdown file names that is not in the tree (wildcards and templates are skipped). */
function missingIn(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const here = dirname(file);
  const exists = (p: string) =>
    SOURCE.some((ext) => existsSync(join(root, p + ext))) || generated(p);
  const missing: string[] = [];
  // A record may name what is gone when it says so: struck through, ~~`path`~~.
  for (const [, raw] of text.replace(/~~`[^`]*`~~/g, '').matchAll(/`([^`\s]+)`/g)) {
    const token = raw!.replace(/[.,:;)]+$/, '').replace(/:\d+(?:-\d+)?$/, '');
    if (/[{}*<>$]|\.\.\.|…/.test(token)) continue;
    if (TOP.test(token)) {
      if (!exists(token)) missing.push(token);
    } else if (
      CODE_FILE.test(token) &&
      token.includes('/') === false &&
      /\.(?:ts|tsx|mjs)$/.test(token)
    ) {
      // A bare file name (`kiln-fetch.ts`): beside the doc, or anywhere in the tree.
      if (!exists(join(here, token)) && !names.has(token)) missing.push(token);
    }
  }
  for (const [, link] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
    if (/^[a-z]+:/.test(link!)) continue;
    if (!existsSync(join(root, here, link!))) missing.push(link!);
  }
  return missing;
}

describe('the docs', () => {
  it.each(markdown)('%s names only files that exist', (file) => {
    expect(missingIn(file)).toEqual([]);
  });
});

describe('the README', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const scripts = Object.keys(
    (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: object }).scripts,
  );

  it('names every npm script', () => {
    const told = (name: string) =>
      name === 'start' || name === 'test'
        ? readme.includes(`npm ${name}`)
        : readme.includes(`npm run ${name}`);
    expect(scripts.filter((name) => !told(name))).toEqual([]);
  });

  it('names every folder of src/ in its layout', () => {
    const layout = readme.slice(readme.indexOf('## Layout'));
    const folders = readdirSync(join(root, 'src')).filter((n) =>
      statSync(join(root, 'src', n)).isDirectory(),
    );
    expect(folders.filter((n) => !layout.includes(`\`src/${n}\``))).toEqual([]);
  });
});
