/** `node` arguments that run `entry` (from the repository root) from its bundle, made when stale. */
export function nodeArgs(entry: string): Promise<string[]>;
/** The bundle of `entry`, made first when it is stale. */
export function entryBundle(entry: string): Promise<string>;
/** Builds the bundle of `entry` now. */
export function buildBundle(entry: string): Promise<string>;
/** True when the bundle is missing, or a file it was made from changed or is gone. */
export function isStale(entry: string): boolean;
/** Where the bundle of `entry` is written. */
export function bundlePath(entry: string): string;
export const BUNDLE_DIR: string;
