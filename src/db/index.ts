export * from './open-sqlite.ts';
