/**
 * Edges (by vertex index) not shared by exactly two triangles: 0 for a closed, edge-manifold
 * triangle mesh. Triangles with a repeated vertex count as they are (their degenerate edges too).
 */
export function badEdgeCount(indices: ArrayLike<number>): number {
  const uses = new Map<number, number>();
  // Vertex indices below 2^26 keep the key exact in a double.
  const key = (a: number, b: number) => (a < b ? a * 67_108_864 + b : b * 67_108_864 + a);
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const e = key(indices[t + k]!, indices[t + ((k + 1) % 3)]!);
      uses.set(e, (uses.get(e) ?? 0) + 1);
    }
  }
  let bad = 0;
  for (const n of uses.values()) if (n !== 2) bad++;
  return bad;
}
