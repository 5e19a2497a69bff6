// The lint rule against feature-level import cycles (decision 0107): it fires on a fixture whose
// features import each other in a circle through their index.ts, and Kiln's own features pass.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { featureCycles, featureGraph, featurePath, noFeatureCycle } from './no-feature-cycle.mjs';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const repo = fileURLToPath(new URL('..', import.meta.url));

// Features as the issue found them: viewer → library → collections → share → viewer, each
// through the other's index.ts, every file on its own acyclic; and a studio nobody imports.
const fixture = mkdtempSync(join(tmpdir(), 'kiln-feature-cycle-'));
const FILES: Record<string, string> = {
  'viewer/index.ts': "export { Slot } from './slot.tsx';\n",
  'viewer/slot.tsx':
    "import { Renamable } from '../library/index.ts';\nexport const Slot = Renamable;\n",
  'library/index.ts': "export { Renamable } from './rename.tsx';\n",
  'library/rename.tsx': 'export const Renamable = 1;\n',
  'library/card.tsx': "import { Add } from '../collections/index.ts';\nexport const Card = Add;\n",
  'collections/index.ts': "export const Add = () => import('../share/index.ts');\n",
  'share/index.ts': "export * from './page.tsx';\n",
  'share/page.tsx': "import { Slot } from '../viewer/index.ts';\nexport const Page = Slot;\n",
  'share/page.test.tsx': "import '../studio/index.ts';\n",
  'studio/index.ts': "import { Page } from '../share/index.ts';\nexport const Studio = Page;\n",
};
for (const [path, text] of Object.entries(FILES)) {
  mkdirSync(dirname(join(fixture, path)), { recursive: true });
  writeFileSync(join(fixture, path), text);
}
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

describe('the feature → feature graph', () => {
  it('is read from imports, re-exports and import(), tests left out', () => {
    const graph = featureGraph(fixture);
    expect([...graph.get('viewer')!.keys()]).toEqual(['library']);
    expect([...graph.get('library')!.keys()]).toEqual(['collections']);
    expect([...graph.get('collections')!.keys()]).toEqual(['share']);
    expect([...graph.get('share')!.keys()]).toEqual(['viewer']);
    expect([...graph.get('studio')!.keys()]).toEqual(['share']);
    expect(featurePath(graph, 'studio', 'library')).toEqual([
      'studio',
      'share',
      'viewer',
      'library',
    ]);
    expect(featurePath(graph, 'viewer', 'studio')).toBeNull();
    expect(featureCycles(graph)).toContainEqual([
      'viewer',
      'library',
      'collections',
      'share',
      'viewer',
    ]);
  });

  it('of Kiln’s own features has no circle', () => {
    const graph = featureGraph(join(repo, 'src/web/features'));
    // The graph is really read: the studio composes the generate form and the tasks.
    expect([...graph.get('studio')!.keys()].sort()).toEqual(['generate', 'tasks']);
    expect(featureCycles(graph)).toEqual([]);
  });
});

const circle =
  'features/share → features/viewer → features/library → features/collections → features/share';

new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
}).run('kiln/no-feature-cycle', noFeatureCycle, {
  valid: [
    // A feature nobody imports may import any feature.
    {
      filename: join(fixture, 'studio/index.ts'),
      code: "import { Page } from '../share/index.ts';",
      options: [{ root: fixture }],
    },
    // Imports within a feature, and of the shared layers outside the features, are not edges.
    {
      filename: join(fixture, 'share/page.tsx'),
      code: "import './index.ts';\nimport { store } from '../../lib/store.ts';\nimport 'react';",
      options: [{ root: fixture }],
    },
    // A test may reach anything.
    {
      filename: join(fixture, 'share/page.test.tsx'),
      code: "import { Slot } from '../viewer/index.ts';",
      options: [{ root: fixture }],
    },
    // A file outside the features is not checked.
    {
      filename: join(fixture, '..', 'elsewhere.ts'),
      code: "import { Slot } from './viewer/index.ts';",
      options: [{ root: fixture }],
    },
  ],
  invalid: [
    {
      filename: join(fixture, 'share/page.tsx'),
      code: "import { Slot } from '../viewer/index.ts';",
      options: [{ root: fixture }],
      errors: [
        {
          messageId: 'cycle',
          data: { circle },
        },
      ],
    },
    {
      // Re-exported, or imported lazily, it is the same edge.
      filename: join(fixture, 'share/other.tsx'),
      code: "export { Slot } from '../viewer/index.ts';\nexport const later = () => import('../viewer/index.ts');",
      options: [{ root: fixture }],
      errors: [
        { messageId: 'cycle', data: { circle } },
        { messageId: 'cycle', data: { circle } },
      ],
    },
    {
      // The viewer may not import the studio once the studio reaches the viewer.
      filename: join(fixture, 'viewer/slot.tsx'),
      code: "import { Studio } from '../studio/index.ts';",
      options: [{ root: fixture }],
      errors: [
        {
          messageId: 'cycle',
          data: {
            circle: 'features/viewer → features/studio → features/share → features/viewer',
          },
        },
      ],
    },
  ],
});
