// The facts reader's job on a worker thread (see facts.ts): the module the pool's threads load.
import { serveJob } from '../workers/index.ts';
import { readModelFacts, type ModelFacts } from './read-facts.ts';

export default serveJob<Uint8Array, ModelFacts>((bytes) => readModelFacts(bytes));
