export * from './create-request.ts';
export * from './errors.ts';
export * from './models.ts';
export * from './task.ts';
export * from './kiln.ts';
export * from './idempotency.ts';
export * from './share.ts';
export * from './optimise.ts';
