// The NodeIO that writes and reads the viewer's fixtures, and how their triangles are counted.
import { createRequire } from 'node:module';
import { Logger, NodeIO, type Document } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';

// draco3dgltf is CommonJS and untyped: load it through require, with the little we use typed.
interface Draco3d {
  createEncoderModule(options?: object): Promise<unknown>;
  createDecoderModule(options?: object): Promise<unknown>;
}
const require = createRequire(import.meta.url);

let ioPromise: Promise<NodeIO> | undefined;

/**
 * A NodeIO that knows every extension gltf-transform implements, with the Draco and
 * Meshopt encoders and decoders registered, so it can both write and read the fixtures.
 */
export function fixtureIO(): Promise<NodeIO> {
  ioPromise ??= (async () => {
    const draco3d = require('draco3dgltf') as Draco3d;
    await Promise.all([MeshoptEncoder.ready, MeshoptDecoder.ready]);
    return new NodeIO()
      .setLogger(new Logger(Logger.Verbosity.WARN))
      .registerExtensions(ALL_EXTENSIONS)
      .registerDependencies({
        'draco3d.encoder': await draco3d.createEncoderModule(),
        'draco3d.decoder': await draco3d.createDecoderModule(),
        'meshopt.encoder': MeshoptEncoder,
        'meshopt.decoder': MeshoptDecoder,
      });
  })();
  return ioPromise;
}

/** Triangles drawn by the document's triangle-list primitives (mode TRIANGLES). */
export function countTriangles(doc: Document): number {
  let triangles = 0;
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const prim of mesh.listPrimitives()) {
      if (prim.getMode() !== 4) continue;
      const count = prim.getIndices()?.getCount() ?? prim.getAttribute('POSITION')?.getCount() ?? 0;
      triangles += Math.floor(count / 3);
    }
  }
  return triangles;
}
