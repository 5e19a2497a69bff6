// What a script can rely on: each way `kiln` ends has one exit code, and each failure one line
// that names the flag, argument or variable at fault. The client's typed errors
// (src/client/errors.ts) decide the code; nothing here reads a message to guess.
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AuthenticationError,
  DeadlineExceededError,
  InsufficientCreditsError,
  InvalidRequestError,
} from '../client/index.ts';

/** The exit codes, documented in src/cli/README.md and the README's "Command line". */
export const EXIT = {
  ok: 0,
  /** A task failed, an export failed, or Kiln or the upstream refused (not found, conflict…). */
  failed: 1,
  /** Unknown command or flag, a missing argument, a bad value (said before anything is sent). */
  usage: 2,
  /** No key, or a key Kiln or the upstream does not accept. */
  auth: 3,
  /** Kiln could not be reached (refused connection, time-out). */
  unreachable: 4,
  /** The balance does not cover the task. */
  credits: 5,
  /** Stopped by Ctrl-C or SIGTERM (a batch resumes where it was). */
  interrupted: 130,
} as const;
export type ExitKind = keyof typeof EXIT;

/** Bad usage: `field` is the flag (`--model`), argument (`photo`) or variable at fault. */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** A failure the command itself decided (a failed task, no copy of a model), with its code. */
export class CliFailure extends Error {
  override name = 'CliFailure';
  constructor(
    readonly kind: ExitKind,
    message: string,
    readonly field?: string,
    readonly code?: string,
    /** More for the --json document (the task's id, say). */
    readonly detail?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** The variable and flag that carry the key, as a message names them. */
export const KEY_FIELD = '--key (or KILN_KEY)';

/** Which flag a parameter Kiln or the upstream names stands for. */
const FLAG_OF_PARAM: Readonly<Record<string, string>> = {
  authorization: KEY_FIELD,
  id: 'ID',
  name: '--name',
  url: '--url',
  prompt: '--prompt',
  model: '--model',
  image_url: 'photo',
  image_urls: 'photos',
  preset: '--target',
  height_mm: '--height-mm',
  collection: '--collection',
  limit: '--limit',
  q: '--q',
  kind: '--kind',
  status: '--status',
  sort: '--sort',
};

/** A failure as a script reads it: its exit code, what it is, the field, the sentence. */
export interface Failure {
  exit_code: number;
  kind: ExitKind;
  field: string | null;
  code: string | null;
  message: string;
  /** What else a script may want: the failed task's id, say. */
  detail?: Record<string, unknown>;
}

/** One line: no line breaks inside a message. */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

function apiFailure(err: APIError): Failure {
  const field = err.param ? (FLAG_OF_PARAM[err.param] ?? err.param) : null;
  const kind: ExitKind =
    err instanceof AuthenticationError
      ? 'auth'
      : err instanceof InsufficientCreditsError
        ? 'credits'
        : err instanceof InvalidRequestError
          ? 'usage'
          : 'failed';
  const authField = kind === 'auth' ? KEY_FIELD : field;
  return {
    exit_code: EXIT[kind],
    kind,
    field: authField,
    code: err.code ?? null,
    message: oneLine(err.message),
  };
}

/** Any error a command throws, as its failure. */
export function failureOf(err: unknown): Failure {
  const make = (kind: ExitKind, message: string, field?: string, code?: string): Failure => ({
    exit_code: EXIT[kind],
    kind,
    field: field ?? null,
    code: code ?? null,
    message: oneLine(message),
  });
  if (err instanceof UsageError) return make('usage', err.message, err.field);
  if (err instanceof CliFailure)
    return {
      ...make(err.kind, err.message, err.field, err.code),
      ...(err.detail ? { detail: err.detail } : {}),
    };
  if (err instanceof APIError) return apiFailure(err);
  if (err instanceof DeadlineExceededError) return make('failed', err.message);
  if (err instanceof APIConnectionError || err instanceof APITimeoutError)
    return make('unreachable', err.message, '--kiln (or KILN_URL)');
  return make('failed', err instanceof Error ? err.message : String(err));
}

/** The line on stderr: `kiln: --model: alpha takes one photo…`. */
export function failureLine(failure: Failure): string {
  return `kiln: ${failure.field ? `${failure.field}: ` : ''}${failure.message}`;
}
