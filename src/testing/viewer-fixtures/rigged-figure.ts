import { Document } from '@gltf-transform/core';

/**
 * A rigged figure as Mixamo-style exports are: an armature node scaled 0.01, a joint 90 units
 * (0.9 m) up inside it, the skinned mesh's vertices in metres, and an inverse bind matrix that
 * undoes the armature. Its true size is 0.5 × 1.8 × 0.3 m, standing on y = 0.
 */
export function riggedFigure(jump = false): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const [hx, h, hz] = [0.25, 1.8, 0.15];
  // prettier-ignore
  const positions = new Float32Array([
    -hx, 0, -hz,  hx, 0, -hz,  hx, h, -hz,  -hx, h, -hz,
    -hx, 0, hz,   hx, 0, hz,   hx, h, hz,   -hx, h, hz,
  ]);
  // prettier-ignore
  const indices = new Uint16Array([
    0, 2, 1, 0, 3, 2,  4, 5, 6, 4, 6, 7,  0, 1, 5, 0, 5, 4,
    3, 7, 6, 3, 6, 2,  0, 4, 7, 0, 7, 3,  1, 2, 6, 1, 6, 5,
  ]);
  const accessor = (
    type: 'SCALAR' | 'VEC4' | 'VEC3' | 'MAT4',
    array: Float32Array | Uint8Array | Uint16Array,
  ) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const material = doc
    .createMaterial('red')
    .setBaseColorFactor([0.8, 0.05, 0.05, 1])
    .setRoughnessFactor(0.6);
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', positions))
    .setAttribute('JOINTS_0', accessor('VEC4', new Uint8Array(8 * 4)))
    .setAttribute(
      'WEIGHTS_0',
      accessor(
        'VEC4',
        new Float32Array(8 * 4).map((_, i) => (i % 4 === 0 ? 1 : 0)),
      ),
    )
    .setIndices(accessor('SCALAR', indices))
    .setMaterial(material);
  const joint = doc.createNode('hips').setTranslation([0, 90, 0]);
  const armature = doc.createNode('armature').setScale([0.01, 0.01, 0.01]).addChild(joint);
  // inverse(S(0.01) · T(0, 90, 0)) = T(0, -90, 0) · S(100), column-major.
  const ibm = new Float32Array([100, 0, 0, 0, 0, 100, 0, 0, 0, 0, 100, 0, 0, -90, 0, 1]);
  const skin = doc
    .createSkin('rig')
    .addJoint(joint)
    .setSkeleton(joint)
    .setInverseBindMatrices(accessor('MAT4', ibm));
  const body = doc
    .createNode('body')
    .setMesh(doc.createMesh('body').addPrimitive(prim))
    .setSkin(skin);
  armature.addChild(body);
  doc.getRoot().setDefaultScene(doc.createScene('scene').addChild(armature));
  if (jump) {
    // Up 150 units (1.5 m) and down again in 2 s, through the joint.
    const times = [0, 0.5, 1, 1.5, 2];
    const heights = [0, 110, 150, 110, 0].flatMap((dy) => [0, 90 + dy, 0]);
    const sampler = doc
      .createAnimationSampler()
      .setInput(accessor('SCALAR', new Float32Array(times)))
      .setOutput(accessor('VEC3', new Float32Array(heights)))
      .setInterpolation('LINEAR');
    const channel = doc
      .createAnimationChannel()
      .setTargetNode(joint)
      .setTargetPath('translation')
      .setSampler(sampler);
    doc.createAnimation('jump').addSampler(sampler).addChannel(channel);
  }
  return doc;
}
