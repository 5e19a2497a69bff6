/** Latin-1 text of `length` bytes from `at` (short when the bytes end first). */
export function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

/** True when `bytes` holds `signature` at `at`. */
export function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);
}
