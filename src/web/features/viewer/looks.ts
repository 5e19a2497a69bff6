// How the model is drawn: its own materials ("lit"), or a stand-in material that shows one thing
// (clay: the geometry alone; normals; the base-colour texture without lighting), plus a wireframe
// overlay. These work on the viewer's own copy of the scene (its meshes are its own; geometry,
// materials and textures are shared with the loaded model), and each returns an undo that puts
// the model's materials back and frees what it made.
import {
  Color,
  DoubleSide,
  Mesh,
  MeshBasicMaterial,
  MeshNormalMaterial,
  MeshStandardMaterial,
  SkinnedMesh,
  type Material,
  type Object3D,
  type Side,
  type Texture,
} from 'three';

export const LOOKS = ['lit', 'clay', 'normals', 'texture'] as const;
export type Look = (typeof LOOKS)[number];

export const LOOK_LABELS: Record<Look, string> = {
  lit: 'Lit',
  clay: 'Clay',
  normals: 'Normals',
  texture: 'Texture only',
};

const CLAY = new Color(0xc4bcb0);

/** The meshes under `root`, collected first (the looks add children while they work). */
function meshesOf(root: Object3D): Mesh[] {
  const meshes: Mesh[] = [];
  root.traverse((node) => {
    if (node instanceof Mesh && !node.userData.kilnOverlay) meshes.push(node);
  });
  return meshes;
}

interface SourceFacts {
  map: Texture | null;
  color: Color | null;
  side: Side;
  transparent: boolean;
  opacity: number;
  alphaTest: number;
  vertexColors: boolean;
}

function factsOf(material: Material): SourceFacts {
  const m = material as Material & { map?: Texture | null; color?: Color };
  return {
    map: m.map ?? null,
    color: m.color instanceof Color ? m.color : null,
    side: material.side,
    transparent: material.transparent,
    opacity: material.opacity,
    alphaTest: material.alphaTest,
    vertexColors: material.vertexColors,
  };
}

function standIn(look: Exclude<Look, 'lit'>, source: Material): Material {
  const f = factsOf(source);
  const common = { side: f.side, alphaTest: f.alphaTest };
  switch (look) {
    case 'clay':
      return new MeshStandardMaterial({ ...common, color: CLAY, roughness: 0.82, metalness: 0 });
    case 'normals':
      return new MeshNormalMaterial(common);
    case 'texture':
      return new MeshBasicMaterial({
        ...common,
        map: f.map,
        // With a texture, the texture alone; without one, the flat base colour.
        color: f.map ? 0xffffff : (f.color ?? 0xffffff),
        vertexColors: f.vertexColors,
        transparent: f.transparent,
        opacity: f.opacity,
      });
  }
}

/**
 * Draws every mesh with the look's material (one per source material, so single- and double-
 * sided parts stay so). Returns the undo.
 */
export function applyLook(root: Object3D, look: Look): () => void {
  if (look === 'lit') return () => {};
  const made = new Map<Material, Material>();
  const swapped: [Mesh, Material | Material[]][] = [];
  const swap = (m: Material) => {
    let to = made.get(m);
    if (!to) made.set(m, (to = standIn(look, m)));
    return to;
  };
  for (const mesh of meshesOf(root)) {
    swapped.push([mesh, mesh.material]);
    mesh.material = Array.isArray(mesh.material) ? mesh.material.map(swap) : swap(mesh.material);
  }
  return () => {
    for (const [mesh, material] of swapped) mesh.material = material;
    for (const material of made.values()) material.dispose();
  };
}

/**
 * Lays a wireframe over every mesh: a child drawing the same geometry (skinned meshes stay bound
 * to their skeleton, so the overlay follows animation). Returns the undo.
 */
export function addWireframe(root: Object3D, color: Color | number = 0x1c1917): () => void {
  const material = new MeshBasicMaterial({
    color,
    wireframe: true,
    transparent: true,
    opacity: 0.45,
    depthWrite: false,
    side: DoubleSide,
    toneMapped: false,
  });
  const overlays: Mesh[] = [];
  for (const mesh of meshesOf(root)) {
    let overlay: Mesh;
    if (mesh instanceof SkinnedMesh) {
      const skinned = new SkinnedMesh(mesh.geometry, material);
      skinned.bind(mesh.skeleton, mesh.bindMatrix);
      skinned.bindMode = mesh.bindMode;
      overlay = skinned;
    } else {
      overlay = new Mesh(mesh.geometry, material);
    }
    overlay.userData.kilnOverlay = true;
    overlay.morphTargetInfluences = mesh.morphTargetInfluences;
    overlay.morphTargetDictionary = mesh.morphTargetDictionary;
    overlay.renderOrder = 1;
    overlay.raycast = () => {};
    mesh.add(overlay);
    overlays.push(overlay);
  }
  return () => {
    for (const overlay of overlays) overlay.removeFromParent();
    // The geometry is the model's; only the overlay's material is ours.
    material.dispose();
  };
}
