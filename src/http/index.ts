export * from './api-error.ts';
export * from './idempotency.ts';
