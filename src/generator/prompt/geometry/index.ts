/**
 * A small kit of closed, outward-facing solids for the prompt templates: lathes, boxes,
 * extruded polygons and lofts, tubes and star-shaped surfaces, with affine transforms and
 * merging.
 *
 * Every solid is a closed triangle mesh whose triangles are counter-clockwise seen from
 * outside, with unit vertex normals and no degenerate triangles or unused vertices. Parts
 * are built in float64 (`Solid`) and only converted to the generator's float32 `MeshData`
 * (no uvs) at the end.
 */
export { boxSolid, boxUnion, cuboid, type Box } from './boxes.ts';
export { loft, prism } from './extrude.ts';
export {
  capsule,
  cylinder,
  ellipsoid,
  latheSolid,
  sphere,
  torus,
  type ProfilePoint,
} from './lathe.ts';
export { bezier, smoothPath } from './paths.ts';
export { bounds, flatShade, merge, signedVolume, toMesh, type Solid, type Vec3 } from './solid.ts';
export { polarDirection, polarSurface, roundedBox } from './surfaces.ts';
export {
  along,
  placeIn,
  rotateX,
  rotateY,
  rotateZ,
  scale,
  transform,
  translate,
} from './transform.ts';
export { arcTube, tube } from './tubes.ts';
