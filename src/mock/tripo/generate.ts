// A Tripo mock task's model: Kiln's generator on the task's input (the same generator the spec
// mock runs), its images fetched through the mock's guarded fetch or taken from an upload.
import sharp from 'sharp';
import type { Generator } from '../engine-deps.ts';
import type { ImageSource, TaskInput } from './tasks.ts';

/** What the Tripo mock needs of the generator (src/mock/create.ts's `pooledGenerator` fits). */
export type TripoGenerator = Pick<
  Generator,
  'imageToGlb' | 'viewsToGlb' | 'promptToGlb' | 'isInputError'
>;

export interface GlbMaker {
  generator: TripoGenerator;
  fetchImage: (url: string, signal: AbortSignal) => Promise<Uint8Array>;
}

const bytesOf = (maker: GlbMaker, source: ImageSource, signal: AbortSignal) =>
  'bytes' in source ? Promise.resolve(source.bytes) : maker.fetchImage(source.url, signal);

/**
 * The generator's views from Tripo's slots. Tripo orders them front, left, back, right; the
 * generator takes front, right, back, left, as a prefix (2: front and right; 3: and back). A left
 * view without a right one is mirrored into the right (an orthographic silhouette seen from the
 * left is the mirror of the one from the right); a front and back alone make an image task.
 */
async function generatorViews(
  slots: readonly (Uint8Array | null)[],
): Promise<{ views: Uint8Array[] } | { front: Uint8Array }> {
  const [front, left, back, right] = slots;
  if (!front) throw new Error('multiview without a front view');
  const side =
    right ?? (left ? new Uint8Array(await sharp(left).flop().png().toBuffer()) : undefined);
  if (!side) return { front };
  const views = [front, side];
  if (back) views.push(back);
  if (back && left && right) views.push(left);
  return { views };
}

/** The GLB of a task's input; throws the generator's input error for an unusable input. */
export async function makeGlb(
  maker: GlbMaker,
  input: TaskInput,
  signal: AbortSignal,
): Promise<Uint8Array> {
  const { generator } = maker;
  if (input.kind === 'text') return generator.promptToGlb(input.prompt);
  if (input.kind === 'image')
    return generator.imageToGlb(await bytesOf(maker, input.image, signal));
  const slots = await Promise.all(
    input.slots.map((s) => (s ? bytesOf(maker, s, signal) : Promise.resolve(null))),
  );
  const plan = await generatorViews(slots);
  return 'views' in plan ? generator.viewsToGlb(plan.views) : generator.imageToGlb(plan.front);
}
