// Before the suite: the viewer's fixture GLBs and the SPA (scripts/e2e-inputs.mjs), each made only
// when missing or stale.
import { prepareE2eInputs } from '../scripts/e2e-inputs.mjs';

export default function globalSetup() {
  prepareE2eInputs();
}
