/** Plane polygons: their signed area and triangulation (for caps and extrusions). */

/** Twice the signed area of a 2-D polygon (positive when counter-clockwise). */
export function area2(poly: readonly (readonly [number, number])[]): number {
  let a = 0;
  for (let i = 0; i < poly.length; i++) {
    const [x0, y0] = poly[i]!;
    const [x1, y1] = poly[(i + 1) % poly.length]!;
    a += x0 * y1 - x1 * y0;
  }
  return a;
}

/** Ear-clipping triangulation of a simple counter-clockwise polygon (indices into it). */
export function triangulate(poly: readonly (readonly [number, number])[]): number[] {
  const idx = poly.map((_, i) => i);
  const out: number[] = [];
  const cross = (a: number, b: number, c: number): number => {
    const [ax, ay] = poly[a]!;
    const [bx, by] = poly[b]!;
    const [cx, cy] = poly[c]!;
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  };
  const inside = (p: number, a: number, b: number, c: number): boolean =>
    cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0;
  let guard = poly.length * poly.length;
  while (idx.length > 3 && guard-- > 0) {
    for (let i = 0; i < idx.length; i++) {
      const a = idx[(i - 1 + idx.length) % idx.length]!;
      const b = idx[i]!;
      const c = idx[(i + 1) % idx.length]!;
      if (cross(a, b, c) <= 1e-12) continue;
      if (idx.some((p) => p !== a && p !== b && p !== c && inside(p, a, b, c))) continue;
      out.push(a, b, c);
      idx.splice(i, 1);
      break;
    }
  }
  if (idx.length !== 3) throw new Error('triangulate: not a simple polygon');
  out.push(idx[0]!, idx[1]!, idx[2]!);
  return out;
}
