export * from './address-policy.ts';
export * from './fetch-glb.ts';
export * from './safe-fetch.ts';
