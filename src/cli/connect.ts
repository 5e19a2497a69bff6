// The one client for Kiln (src/client/kiln), made from the flags and the environment: every
// request `kiln` sends goes through it, with the key as a bearer token and refusals as the
// client's typed errors. A vendor's model (`meshy/…`) takes that vendor's key from
// KILN_MESHY_KEY, KILN_TRIPO_KEY or KILN_FAL_KEY, and the library's own key from KILN_LIBRARY
// (decision 0114), read as `npm run mcp` reads them (src/client/kiln/env.ts).
import { readVendorEnv, vendorKeyVariable } from '../client/kiln/env.ts';
import { createKilnApi, kilnBaseUrl, type KilnApi } from '../client/kiln/index.ts';
import { PROVIDER_LABELS, splitModelId } from '../contract/provider-ids.ts';
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
  /** Whether a Kiln API key is sent (a library key alone names only the library). */
  keyed: boolean;
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

/** A vendor's model without its key: exit 3, naming the variable to set. */
function checkVendorKey(model: string | undefined, keys: ReturnType<typeof readVendorEnv>): void {
  const vendor = model === undefined ? undefined : splitModelId(model)?.provider;
  if (!vendor || keys.providerKeys[vendor]) return;
  const label = PROVIDER_LABELS[vendor];
  throw new CliFailure(
    'auth',
    `is not set: ${model} is a ${label} model, made with your ${label} API key.`,
    vendorKeyVariable(vendor),
  );
}

/**
 * The client for the key and address given (`--key`/KILN_KEY, `--kiln`/KILN_URL), with every
 * vendor key set and KILN_LIBRARY; `model`, when a vendor's, must have its vendor's key. A
 * library key alone (no KILN_KEY) reaches the library and vendors' models, not the spec's.
 */
export function connect(
  flags: { key?: string | undefined; kiln?: string | undefined },
  io: Io,
  model?: string,
): Connection {
  const baseUrl = baseUrlOf(flags.kiln, io);
  const pollMs = pollOf(io);
  const apiKey = (flags.key ?? io.env.KILN_KEY) || undefined;
  const keys = readVendorEnv(io.env);
  if (!apiKey && !keys.library)
    throw new CliFailure(
      'auth',
      'no API key: set KILN_KEY or pass --key tr_… (or KILN_LIBRARY, for vendors’ models).',
      KEY_FIELD,
    );
  checkVendorKey(model, keys);
  const { providerKeys, library } = keys;
  return {
    api: createKilnApi({ baseUrl, apiKey, providerKeys, library }),
    baseUrl,
    pollMs,
    keyed: apiKey !== undefined,
  };
}

/**
 * Kiln answers a read under a key it does not know with an empty library and no balance (only
 * writes ask the upstream about a key, decision 0092): when a read comes back empty, this asks
 * the upstream through Kiln's proxy, so a wrong key is an AuthenticationError (exit 3), not an
 * empty list.
 */
export async function checkKey({ api, keyed }: Pick<Connection, 'api' | 'keyed'>): Promise<void> {
  if (keyed) await api.upstream().listModels();
}
