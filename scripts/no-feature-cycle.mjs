// An ESLint rule, `kiln/no-feature-cycle` (decision 0107): a feature of src/web may import
// another's index.ts, but never in a circle. A file-level cycle check cannot see this: each file
// may be acyclic while viewer → library → collections → share → viewer through their index.ts.
// So the rule reads every feature's imports from disk (the feature → feature graph), and fails an
// import of feature B in feature A when B already reaches A, naming the whole circle.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** `from '…'`, `import '…'`, `import('…')`: the specifiers a file imports (or re-exports). */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\1/g;
const SOURCE_FILE = /\.(?:ts|tsx|mts|js|mjs)$/;
const TEST_FILE = /\.test\.(?:ts|tsx)$/;

/** The feature a path under `root` belongs to (its first folder), or null outside `root`. */
function featureOf(root, path) {
  const rel = relative(root, path);
  if (!rel || rel.startsWith('..') || rel.includes(':')) return null;
  const [first, ...rest] = rel.split(sep);
  return rest.length > 0 ? first : null;
}

/** The feature another one's import lands in, or null (not relative, the same one, outside). */
function importedFeature(root, feature, fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const other = featureOf(root, resolve(dirname(fromFile), specifier));
  return other && other !== feature ? other : null;
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(path);
    return SOURCE_FILE.test(d.name) && !TEST_FILE.test(d.name) ? [path] : [];
  });
}

/**
 * The feature → feature graph of the features under `root` (tests left out: a test may reach
 * anything). Each edge keeps the first file that makes it, to name it.
 * @returns {Map<string, Map<string, string>>}
 */
export function featureGraph(root) {
  const graph = new Map();
  for (const d of readdirSync(root, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    const edges = new Map();
    graph.set(d.name, edges);
    for (const file of sourceFiles(join(root, d.name))) {
      for (const [, , specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
        const other = importedFeature(root, d.name, file, specifier);
        if (other && !edges.has(other)) edges.set(other, relative(root, file));
      }
    }
  }
  return graph;
}

/** The features from `from` to `to` along the graph's edges (both ends in), or null. */
export function featurePath(graph, from, to) {
  const cameFrom = new Map([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const at = queue.shift();
    if (at === to) {
      const path = [];
      for (let f = to; f !== null; f = cameFrom.get(f)) path.unshift(f);
      return path;
    }
    for (const next of graph.get(at)?.keys() ?? []) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, at);
        queue.push(next);
      }
    }
  }
  return null;
}

/** Every circle of the graph, once per edge that closes one: `['viewer', 'library', 'viewer']`. */
export function featureCycles(graph) {
  const cycles = [];
  for (const [feature, edges] of graph) {
    for (const other of edges.keys()) {
      const back = featurePath(graph, other, feature);
      if (back) cycles.push([feature, ...back]);
    }
  }
  return cycles;
}

// One graph per root for a moment: a lint run reads the features once, an editor sees edits.
const GRAPH_TTL_MS = 2_000;
const graphs = new Map();
function cachedGraph(root) {
  const kept = graphs.get(root);
  if (kept && Date.now() - kept.at < GRAPH_TTL_MS) return kept.graph;
  const graph = featureGraph(root);
  graphs.set(root, { graph, at: Date.now() });
  return graph;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noFeatureCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'A feature imports no feature that reaches it back (decision 0107).' },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' } },
        additionalProperties: false,
      },
    ],
    messages: {
      cycle:
        'Features import each other in a circle: {{circle}}. Move what both need to src/web/ui or src/web/lib (decision 0107).',
    },
  },
  create(context) {
    const root = resolve(context.cwd, context.options[0]?.root ?? 'src/web/features');
    const file = context.filename;
    const feature = featureOf(root, file);
    if (!feature || TEST_FILE.test(file)) return {};
    const check = (node) => {
      const specifier = node.source?.type === 'Literal' ? node.source.value : null;
      if (typeof specifier !== 'string') return;
      const other = importedFeature(root, feature, file, specifier);
      if (!other) return;
      const back = featurePath(cachedGraph(root), other, feature);
      if (back)
        context.report({
          node: node.source,
          messageId: 'cycle',
          data: { circle: [feature, ...back].map((f) => `features/${f}`).join(' → ') },
        });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

/** The plugin eslint.config.js registers as `kiln`. */
export const kilnPlugin = { rules: { 'no-feature-cycle': noFeatureCycle } };
