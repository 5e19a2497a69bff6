export * from './abort.ts';
export * from './limiter.ts';
