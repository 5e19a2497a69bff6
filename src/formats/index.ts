export * from './byte-size.ts';
export * from './file-name.ts';
export * from './glb-header.ts';
export * from './image-kind.ts';
export * from './image-size.ts';
export * from './limits.ts';
