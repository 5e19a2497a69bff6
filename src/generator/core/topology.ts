/**
 * Edges (by vertex index) not shared by exactly two triangles: 0 for a closed, edge-manifold
 * triangle mesh. Triangles with a repeated vertex count as they are (their degenerate edges too).
 */
export function badEdgeCount(indices: ArrayLike<number>): number {
  // Each undirected edge as one number, sorted: an edge's uses are then one run of equal keys.
  // (A typed array's numeric sort, not a Map of doubles: a mesh of 50k triangles is 150k edges.)
  // Vertex indices below 2^26 keep the key exact in a double.
  const keys = new Float64Array(indices.length);
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = indices[t + k]!;
      const b = indices[t + ((k + 1) % 3)]!;
      keys[t + k] = a < b ? a * 67_108_864 + b : b * 67_108_864 + a;
    }
  }
  keys.sort();
  let bad = 0;
  for (let i = 0; i < keys.length;) {
    let j = i + 1;
    while (j < keys.length && keys[j] === keys[i]) j++;
    if (j - i !== 2) bad++;
    i = j;
  }
  return bad;
}
