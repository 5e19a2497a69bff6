export * from './address-policy.ts';
export * from './fetch-glb.ts';
export * from './safe-fetch.ts';
export { SafeFetchError } from './safe-fetch-error.ts';
export { exactOrigins } from './url-rules.ts';
export type { RequestFunction } from './exchange.ts';
