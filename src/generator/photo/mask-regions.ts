/** Region tools over masks: connected components and one-sample grow and shrink steps. */
import type { Mask } from './mask-type.ts';

/**
 * Labels connected components of samples equal to `value`. Foreground uses 8-connectivity,
 * background 4-connectivity (the usual pairing that keeps outlines consistent).
 * Returns per-sample labels (-1 for other samples) and each component's size.
 */
export function components(mask: Mask, value: 0 | 1): { labels: Int32Array; sizes: number[] } {
  const { width, height, inside } = mask;
  const labels = new Int32Array(width * height).fill(-1);
  const sizes: number[] = [];
  const stack: number[] = [];
  // Neighbour offsets as separate x and y lists (no per-step tuple destructuring).
  const ox = value === 1 ? [-1, 0, 1, -1, 1, -1, 0, 1] : [0, -1, 1, 0];
  const oy = value === 1 ? [-1, -1, -1, 0, 0, 1, 1, 1] : [-1, 0, 0, 1];
  const k = ox.length;
  for (let start = 0; start < inside.length; start++) {
    if (inside[start] !== value || labels[start] !== -1) continue;
    const label = sizes.length;
    let size = 0;
    labels[start] = label;
    stack.push(start);
    while (stack.length > 0) {
      const s = stack.pop()!;
      size++;
      const x = s % width;
      const y = (s - x) / width;
      for (let o = 0; o < k; o++) {
        const nx = x + ox[o]!;
        const ny = y + oy[o]!;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const n = ny * width + nx;
        if (inside[n] === value && labels[n] === -1) {
          labels[n] = label;
          stack.push(n);
        }
      }
    }
    sizes.push(size);
  }
  return { labels, sizes };
}

/** `inside` grown (`grow`) or shrunk by one sample in all eight directions; the frame is outside. */
export function step8(
  inside: Uint8Array,
  width: number,
  height: number,
  grow: boolean,
): Uint8Array {
  const out = new Uint8Array(inside.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let any = false;
      let all = true;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          const v =
            nx >= 0 && ny >= 0 && nx < width && ny < height && inside[ny * width + nx] === 1;
          any ||= v;
          all &&= v;
        }
      out[y * width + x] = (grow ? any : all) ? 1 : 0;
    }
  return out;
}

/** Which of the labelled regions reach the grid's frame (1) and which are enclosed (0). */
export function touchingBorder(
  labels: Int32Array,
  regions: number,
  width: number,
  height: number,
): Uint8Array {
  const touches = new Uint8Array(regions);
  for (let x = 0; x < width; x++)
    for (const y of [0, height - 1]) {
      const l = labels[y * width + x]!;
      if (l >= 0) touches[l] = 1;
    }
  for (let y = 0; y < height; y++)
    for (const x of [0, width - 1]) {
      const l = labels[y * width + x]!;
      if (l >= 0) touches[l] = 1;
    }
  return touches;
}
