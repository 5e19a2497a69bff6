// Kiln's Meshy provider: the adapter factory and Meshy's public base URL (README.md).
export { createMeshyAdapter, MESHY_DEFAULT_BASE_URL } from './adapter.ts';
