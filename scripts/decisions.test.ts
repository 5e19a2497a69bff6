// The decision records stay readable: each one is one decision in at most 500 words (counted as
// `wc -w` counts them, the whole file), and docs/decisions/README.md, the index, lists every
// record and only records that exist. A record merged into another stays as a stub saying so,
// and its row says so too.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('../docs/decisions/', import.meta.url));
const MAX_WORDS = 500;
const records = readdirSync(dir)
  .filter((name) => /^\d{4}-.+\.md$/.test(name))
  .sort();
const read = (name: string) => readFileSync(join(dir, name), 'utf8');
/** Words as `wc -w` counts them: runs of anything but ASCII white space. */
const words = (text: string) => text.split(/[ \t\n\r\f\v]+/).filter(Boolean).length;
/** The record a stub was merged into, or undefined for a record of its own. */
const mergedInto = (text: string) => /^Status: merged into \[(\d{4})\]/m.exec(text)?.[1];

const index = read('README.md');
const rows = [...index.matchAll(/^\| \[(\d{4})\]\(([^)]+)\) +\|[^|]*\|([^|]*)\|$/gm)].map(
  ([, number, file, status]) => ({ number: number!, file: file!, status: status!.trim() }),
);

describe('the decision records', () => {
  it('are there to check', () => {
    expect(records.length).toBeGreaterThan(50);
  });

  it.each(records)(`%s holds at most ${MAX_WORDS} words`, (name) => {
    expect(words(read(name))).toBeLessThanOrEqual(MAX_WORDS);
  });

  it.each(records)('%s starts with its own number and says its status', (name) => {
    const text = read(name);
    expect(text.startsWith(`# ${name.slice(0, 4)}`)).toBe(true);
    expect(text).toMatch(/^(?:Date: .*)?Status: /m);
  });
});

describe('the index of decision records', () => {
  it('lists every record once', () => {
    const listed = rows.map((r) => r.file);
    expect(records.filter((name) => !listed.includes(name))).toEqual([]);
    expect(listed.filter((file, i) => listed.indexOf(file) !== i)).toEqual([]);
  });

  it('lists only records that exist, under their own number', () => {
    expect(rows.filter((r) => !records.includes(r.file))).toEqual([]);
    expect(rows.filter((r) => !r.file.startsWith(`${r.number}-`))).toEqual([]);
  });

  it('says which records were merged, and into which', () => {
    const wrong = rows.flatMap((r) => {
      if (!records.includes(r.file)) return [];
      const into = mergedInto(read(r.file));
      const said = /^merged into \[?(\d{4})/.exec(r.status)?.[1];
      return into === said ? [] : [`${r.file}: the record says ${into}, its row ${said}`];
    });
    expect(wrong).toEqual([]);
  });

  it('merges only into records that are themselves whole', () => {
    const broken = records.flatMap((name) => {
      const into = mergedInto(read(name));
      if (!into) return [];
      const target = records.find((r) => r.startsWith(`${into}-`));
      return target && !mergedInto(read(target)) ? [] : [`${name} → ${into}`];
    });
    expect(broken).toEqual([]);
  });
});
