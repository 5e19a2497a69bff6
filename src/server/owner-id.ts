import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIBRARY_HEADER } from '../contract/provider-ids.ts';

/**
 * The server's secret, kept in DATA_DIR (created on first start, mode 0600).
 * Library rows are filed under HMAC(secret, key): the key itself is never stored,
 * and a stolen database cannot be checked against guessed keys without the secret.
 */
export function loadServerSecret(dataDir: string): Buffer {
  const file = join(dataDir, 'server-secret');
  try {
    const hex = readFileSync(file, 'utf8').trim();
    if (/^[a-f0-9]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32);
  writeFileSync(file, `${secret.toString('hex')}\n`, { mode: 0o600, flag: 'w' });
  return secret;
}

export type OwnerOf = (apiKey: string) => string;

export function ownerHasher(secret: Buffer): OwnerOf {
  // Every request hashes its key; the last few thousand answers are kept (in memory only).
  const recent = new Map<string, string>();
  return (apiKey) => {
    let owner = recent.get(apiKey);
    if (owner === undefined) {
      owner = createHmac('sha256', secret).update(apiKey).digest('hex');
      if (recent.size >= 5000) recent.delete(recent.keys().next().value as string);
      recent.set(apiKey, owner);
    }
    return owner;
  };
}

/** The bearer token of an Authorization header, or undefined. */
export function bearerKey(header: string | undefined): string | undefined {
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m?.[1];
}

/** How logs name a key: a short fingerprint of its owner hash, never the key. */
export function fingerprintOf(owner: string): string {
  return `key#${owner.slice(0, 8)}`;
}

/**
 * The header naming an artist's library (decision 0114, in the contract: the studio sends it).
 * Without it, the bearer key names the library, as it always has.
 */
export { LIBRARY_HEADER };

/** A library key Kiln's studio makes: `kl_` and 43 base64url characters (32 random bytes). */
const LIBRARY_KEY_SHAPE = /^kl_[A-Za-z0-9_-]{43}$/;

export function isLibraryKeyShaped(key: string): boolean {
  return LIBRARY_KEY_SHAPE.test(key);
}

/** The key that names a request's library: its library header, else its bearer key. */
export function libraryKeyOf(header: (name: string) => string | undefined): string | undefined {
  return header(LIBRARY_HEADER)?.trim() || bearerKey(header('authorization'));
}
