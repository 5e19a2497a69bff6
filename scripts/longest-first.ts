// A Vitest sequencer that starts the named files first, in the order named, then the rest in
// Vitest's own order (in a clean clone: the largest file first). A long file that starts last
// runs alone at the end with a core idle; started first, the short files fill in around it.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export function longestFirst(paths: readonly string[]) {
  return class LongestFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const rank = (f: TestSpecification) => {
        const i = paths.findIndex((path) => f.moduleId.endsWith(`/${path}`));
        return i < 0 ? paths.length : i;
      };
      return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
    }
  };
}
