// What a model file is, read on a worker thread (facts-job.ts): glTF-Transform's count of its
// triangles, vertices, materials, textures and size (the optimiser's own `documentFacts`), and
// the Khronos glTF validator's verdict, boiled down to its counts and first issues.
import { validateBytes, type ValidationReport } from 'gltf-validator';
import { documentFacts } from '../server/optimise/facts.ts';
import { optimiseIO } from '../server/optimise/io.ts';

const SEVERITIES = ['error', 'warning', 'info', 'hint'] as const;
/** Issues the validator reports at most, and the ones kept in the summary. */
const MAX_ISSUES = 100;
const KEPT_ISSUES = 5;

interface ValidatorSummary {
  errors: number;
  warnings: number;
  infos: number;
  hints: number;
  /** The first few issues, in the validator's order. */
  issues: { code: string; severity: string; message: string; pointer?: string }[];
  /** The validator stopped at its limit: the counts cover only what it reported. */
  truncated: boolean;
  version: string;
}

export interface ModelFacts {
  bytes: number;
  triangles: number;
  vertices: number;
  meshes: number;
  materials: number;
  textures: { width: number; height: number; mime_type: string }[];
  /** The bounding box's size, x · y · z, in metres (y is up). */
  size_m: [number, number, number];
  /** The glTF extensions the file uses. */
  extensions: string[];
  animations: number;
  validator: ValidatorSummary;
}

function summarise(report: ValidationReport): ValidatorSummary {
  const { numErrors, numWarnings, numInfos, numHints, messages, truncated } = report.issues;
  const issues = messages.slice(0, KEPT_ISSUES).map((m) => ({
    code: m.code,
    severity: SEVERITIES[m.severity] ?? 'error',
    message: m.message,
    ...(typeof m.pointer === 'string' ? { pointer: m.pointer } : {}),
  }));
  const counts = { errors: numErrors, warnings: numWarnings, infos: numInfos, hints: numHints };
  return { ...counts, issues, truncated, version: report.validatorVersion };
}

async function validate(bytes: Uint8Array): Promise<ValidatorSummary> {
  // dart2js checks the class: a Node Buffer or a view from another realm is refused.
  const data = bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes);
  const report = await validateBytes(data, {
    format: 'glb',
    maxIssues: MAX_ISSUES,
    writeTimestamp: false,
    externalResourceFunction: (uri) =>
      Promise.reject(new Error(`external resources are not loaded (${uri})`)),
  });
  return summarise(report);
}

/** The facts of a GLB file; rejects when glTF-Transform cannot read it at all. */
export async function readModelFacts(bytes: Uint8Array): Promise<ModelFacts> {
  const io = await optimiseIO();
  const [doc, validator] = await Promise.all([io.readBinary(bytes), validate(bytes)]);
  const facts = documentFacts(doc, bytes.byteLength);
  const root = doc.getRoot();
  return {
    bytes: facts.bytes,
    triangles: facts.triangles,
    vertices: facts.vertices,
    meshes: root.listMeshes().length,
    materials: root.listMaterials().length,
    textures: facts.textures,
    size_m: facts.size_m,
    extensions: facts.extensions,
    animations: root.listAnimations().length,
    validator,
  };
}
