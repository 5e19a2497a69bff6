// Where `kiln` writes: results on stdout (a JSON document with --json, nothing else there),
// progress and messages on stderr, one line each. Tests and the commands take an Io, so nothing
// but main.ts reaches for `process`.

export interface Io {
  /** Writes to stdout as is. */
  out(text: string): void;
  /** Writes to stderr as is. */
  err(text: string): void;
  /** stderr is a terminal: progress redraws in place; otherwise it prints plain lines. */
  errIsTty: boolean;
  /** The terminal's width in columns (80 when not known). */
  columns: number;
  /** The terminal's height in rows (24 when not known). */
  rows: number;
  /** The folder relative paths are read against. */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

export function processIo(): Io {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    errIsTty: process.stderr.isTTY === true,
    columns: process.stderr.columns || 80,
    rows: process.stderr.rows || 24,
    cwd: process.cwd(),
    env: process.env,
  };
}

/** The one JSON document of a --json run. */
export function printJson(io: Io, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}

/** A message for people, on stderr. */
export function say(io: Io, line: string): void {
  io.err(`${line}\n`);
}
