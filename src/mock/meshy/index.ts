// The Meshy mock's public face: the app factory and its demo keys (README.md).
export { createMeshyMock, MESHY_DEMO_KEYS, type MeshyMock, type MeshyMockDeps } from './app.ts';
