// The Meshy mock's public face: the app factory and its demo keys (README.md).
export { createmeshyMock, meshy_DEMO_KEYS, type MeshyMock, type MeshyMockDeps } from './app.ts';
