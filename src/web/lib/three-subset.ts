// What @react-three/fiber gets when it imports 'three' (in builds: see `r3fThreeSubset` in
// vite.config.ts). Its <Canvas> registers `import * as THREE from 'three'` as its catalogue of JSX
// elements (`<gridHelper>` is `new THREE.GridHelper()`), which keeps every class of three.js in
// the bundle whether used or not. Given this module instead, the bundle keeps only what is named
// here and what the rest of the app imports from 'three' itself.
//
// Two lists, both needed:
//   1. what r3f's own code reads off THREE (node_modules/@react-three/fiber/dist/*.esm.js:
//      `grep -o "THREE\.[A-Za-z0-9_]*"`);
//   2. the classes behind every lowercase JSX element rendered inside the <Canvas>: Kiln's own
//      (src/web/features/viewer/scene.tsx and the files it composes) and those drei's components
//      render (Bounds, Center: group; ContactShadows: group, mesh, meshBasicMaterial,
//      orthographicCamera; OrbitControls: primitive, which needs no class).
// A name missing here fails the viewer at run time ("R3F: <Name> is not part of the THREE
// namespace!", or a crash inside r3f), so the build checks every module it bundles against this
// list (`threeNamesUsedBy` in vite.config.ts: r3f's `THREE.<Name>`, drei's `createElement("…")`,
// `<element>` in the app's .tsx files that import @react-three/*) and fails, naming what to add.
// Not checked: elements rendered by an app component in a file that does not import
// @react-three/*, or under names built at run time.

// r3f's `new THREE.Clock()`, without three's deprecation warning (see frame-clock.ts).
export { FrameClock as Clock } from './frame-clock.ts';

// 1. r3f internals.
export {
  ACESFilmicToneMapping,
  BasicShadowMap,
  Color,
  ColorManagement,
  Layers,
  LinearSRGBColorSpace,
  NoToneMapping,
  Object3D,
  OrthographicCamera,
  PCFShadowMap,
  PCFSoftShadowMap,
  PerspectiveCamera,
  RGBAFormat,
  Raycaster,
  SRGBColorSpace,
  Scene,
  ShaderMaterial,
  UnsignedByteType,
  VSMShadowMap,
  Vector2,
  Vector3,
  WebGLRenderer,
} from 'three';

// 2. JSX elements (besides <primitive>, and those already above: orthographicCamera, scene…).
export {
  AmbientLight,
  BufferGeometry,
  DirectionalLight,
  GridHelper,
  Group,
  HemisphereLight,
  Mesh,
  MeshBasicMaterial,
  MeshStandardMaterial,
  PlaneGeometry,
} from 'three';
