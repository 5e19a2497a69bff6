// A red cube (Kiln's own model of the prompt) with two clips: "spin" (rotation) and "bounce"
// (translation).
import type { Document, Node, NodeIO, vec3, vec4 } from '@gltf-transform/core';
import { promptToGlb } from '../../generator/index.ts';

/** Quaternion for a turn of `degrees` about +Y. */
function yRotation(degrees: number): vec4 {
  const half = (degrees * Math.PI) / 360;
  return [0, Math.sin(half), 0, Math.cos(half)];
}

export async function animatedCube(io: NodeIO): Promise<Document> {
  const doc = await io.readBinary(await promptToGlb('a red cube'));
  const root = doc.getRoot();
  const buffer = root.listBuffers()[0] ?? doc.createBuffer();
  const node: Node | undefined = root.listNodes().find((n) => n.getMesh() !== null);
  if (!node) throw new Error('promptToGlb gave a scene with no mesh node');
  node.setName('cube');

  const scalars = (name: string, values: number[]) =>
    doc.createAccessor(name).setType('SCALAR').setArray(new Float32Array(values)).setBuffer(buffer);

  // Channels and samplers stay unnamed: glTF has no `name` on them (the validator warns).
  // "spin": one full turn about Y in 2 s, five keyframes a quarter turn apart (LINEAR
  // slerp between keys 90° apart is unambiguous).
  const spinTimes = [0, 0.5, 1, 1.5, 2];
  const spinValues = spinTimes.flatMap((t) => yRotation(t * 180));
  const spinSampler = doc
    .createAnimationSampler()
    .setInput(scalars('spin-times', spinTimes))
    .setOutput(
      doc
        .createAccessor('spin-rotations')
        .setType('VEC4')
        .setArray(new Float32Array(spinValues))
        .setBuffer(buffer),
    )
    .setInterpolation('LINEAR');
  const spinChannel = doc
    .createAnimationChannel()
    .setTargetNode(node)
    .setTargetPath('rotation')
    .setSampler(spinSampler);
  doc.createAnimation('spin').addSampler(spinSampler).addChannel(spinChannel);

  // "bounce": up half a unit and back down in 1 s, from wherever the node stands.
  const [x, y, z] = node.getTranslation();
  const bounceTimes = [0, 0.25, 0.5, 0.75, 1];
  const heights = [0, 0.375, 0.5, 0.375, 0];
  const bounceValues = heights.flatMap((h): vec3 => [x, y + h, z]);
  const bounceSampler = doc
    .createAnimationSampler()
    .setInput(scalars('bounce-times', bounceTimes))
    .setOutput(
      doc
        .createAccessor('bounce-translations')
        .setType('VEC3')
        .setArray(new Float32Array(bounceValues))
        .setBuffer(buffer),
    )
    .setInterpolation('LINEAR');
  const bounceChannel = doc
    .createAnimationChannel()
    .setTargetNode(node)
    .setTargetPath('translation')
    .setSampler(bounceSampler);
  doc.createAnimation('bounce').addSampler(bounceSampler).addChannel(bounceChannel);
  return doc;
}
