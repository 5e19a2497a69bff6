import { createRequire } from 'node:module';
import { Logger, NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';

// draco3dgltf is CommonJS and untyped: loaded through require, with the little used typed.
interface Draco3d {
  createEncoderModule(options?: object): Promise<unknown>;
  createDecoderModule(options?: object): Promise<unknown>;
}
const require = createRequire(import.meta.url);

let ioPromise: Promise<NodeIO> | undefined;

/**
 * A NodeIO that reads and writes every extension glTF-Transform knows, with the Draco and
 * Meshopt encoders and decoders (a model compressed either way can be read, and written either
 * way). One per thread: the WASM modules are made once.
 */
export function optimiseIO(): Promise<NodeIO> {
  ioPromise ??= (async () => {
    const draco3d = require('draco3dgltf') as Draco3d;
    const [encoder, decoder] = await Promise.all([
      draco3d.createEncoderModule(),
      draco3d.createDecoderModule(),
      MeshoptEncoder.ready,
      MeshoptDecoder.ready,
    ]);
    return new NodeIO()
      .setLogger(new Logger(Logger.Verbosity.ERROR))
      .registerExtensions(ALL_EXTENSIONS)
      .registerDependencies({
        'draco3d.encoder': encoder,
        'draco3d.decoder': decoder,
        'meshopt.encoder': MeshoptEncoder,
        'meshopt.decoder': MeshoptDecoder,
      });
  })();
  return ioPromise;
}
