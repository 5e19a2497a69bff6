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

/**
 * `inside` grown (`grow`) or shrunk by `radius` samples in all eight directions, the frame outside:
 * what `radius` one-sample steps give, as one square (2·radius + 1 wide) swept along the rows and
 * then the columns with running counts, so its cost does not grow with the radius.
 */
export function step8(
  inside: Uint8Array,
  width: number,
  height: number,
  grow: boolean,
  radius = 1,
): Uint8Array {
  const rows = sweep(inside, width, height, 1, width, grow, radius);
  return sweep(rows, height, width, width, 1, grow, radius);
}

/**
 * One pass of `step8` along lines of `length` samples `stride` apart, `lines` of them `gap`
 * apart: a sample is set when any (grow) or all (shrink) of the samples within `radius` along
 * its line are, counting samples past the frame as unset.
 */
function sweep(
  inside: Uint8Array,
  length: number,
  lines: number,
  stride: number,
  gap: number,
  grow: boolean,
  radius: number,
): Uint8Array {
  const out = new Uint8Array(inside.length);
  const window = 2 * radius + 1;
  for (let line = 0; line < lines; line++) {
    const base = line * gap;
    // Set samples in [i − radius, i + radius], the window moved one sample at a time.
    let count = 0;
    for (let j = 0; j < Math.min(radius, length); j++) count += inside[base + j * stride]!;
    for (let i = 0; i < length; i++) {
      const enter = i + radius;
      if (enter < length) count += inside[base + enter * stride]!;
      const leave = i - radius - 1;
      if (leave >= 0) count -= inside[base + leave * stride]!;
      out[base + i * stride] = (grow ? count > 0 : count === window) ? 1 : 0;
    }
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
