// The one client for Kiln (src/client/kiln), made from the flags and the environment: every
// request `kiln` sends goes through it, with the key as a bearer token and refusals as the
// client's typed errors.
import { createKilnApi, kilnBaseUrl, type KilnApi } from '../client/kiln/index.ts';
import type { PollInterval } from '../client/index.ts';
import { CliFailure, KEY_FIELD, UsageError } from './exit.ts';
import type { Io } from './io.ts';

/** Kiln's address when neither --kiln nor KILN_URL says one: what `npm start` serves on. */
const DEFAULT_KILN_URL = 'http://127.0.0.1:8080';

export interface Connection {
  api: KilnApi;
  baseUrl: string;
  /** Between polls of a task or a job: KILN_POLL_MS, else the client's 2 s easing to 5 s. */
  pollMs: PollInterval | undefined;
}

function baseUrlOf(flag: string | undefined, io: Io): string {
  const [value, field] =
    flag !== undefined ? [flag, '--kiln'] : [io.env.KILN_URL || DEFAULT_KILN_URL, 'KILN_URL'];
  try {
    return kilnBaseUrl(value);
  } catch {
    throw new UsageError(
      field,
      `"${value}" is not an http(s) address such as ${DEFAULT_KILN_URL}.`,
    );
  }
}

function pollOf(io: Io): PollInterval | undefined {
  const raw = io.env.KILN_POLL_MS;
  if (raw === undefined || raw === '') return undefined;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 10 || ms > 60_000)
    throw new UsageError(
      'KILN_POLL_MS',
      `must be a whole number of milliseconds from 10 to 60000, not "${raw}".`,
    );
  return ms;
}

/** The client for the key and address given (`--key`/KILN_KEY, `--kiln`/KILN_URL). */
export function connect(
  flags: { key?: string | undefined; kiln?: string | undefined },
  io: Io,
): Connection {
  const baseUrl = baseUrlOf(flags.kiln, io);
  const pollMs = pollOf(io);
  const apiKey = flags.key ?? io.env.KILN_KEY;
  if (!apiKey)
    throw new CliFailure('auth', 'no API key: set KILN_KEY or pass --key tr_….', KEY_FIELD);
  return { api: createKilnApi({ baseUrl, apiKey }), baseUrl, pollMs };
}

/**
 * Kiln answers a read under a key it does not know with an empty library and no balance (only
 * writes ask the upstream about a key, decision 0092): when a read comes back empty, this asks
 * the upstream through Kiln's proxy, so a wrong key is an AuthenticationError (exit 3), not an
 * empty list.
 */
export async function checkKey(api: KilnApi): Promise<void> {
  await api.upstream().listModels();
}
