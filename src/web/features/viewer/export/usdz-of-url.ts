// A model's USDZ made from its address, with no viewer on screen: the share dialog sends it
// with the link for AR Quick Look (decision 0090). Loaded lazily through the viewer's index.ts.
import { acquire, loadModel, release } from '../loaders.ts';
import { exportModel } from './export-model.ts';

/** The USDZ (Kiln's export, as "Save as USDZ" makes it) of the GLB at `url`. Browser only. */
export async function usdzOfUrl(url: string): Promise<Blob> {
  const loaded = await loadModel(url);
  if (loaded instanceof Error) throw loaded;
  acquire(loaded);
  try {
    return await exportModel('usdz', loaded.gltf.scene);
  } finally {
    release(loaded);
  }
}
