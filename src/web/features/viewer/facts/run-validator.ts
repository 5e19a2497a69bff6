// Runs gltf-validator in the current thread and boils its report down to a summary. Used by
// validate-worker.ts (in the browser) and by validate.ts where there is no Worker (Node).
// gltf-validator (~300 kB of dart2js) is imported lazily, so it lands in a chunk of its own
// that is fetched only when a report is asked for.
import type { ValidationReport } from 'gltf-validator';

type Severity = 'error' | 'warning' | 'info' | 'hint';

interface ValidationIssue {
  /** The validator's issue code ("ACCESSOR_INDEX_OOB"). */
  code: string;
  message: string;
  severity: Severity;
  /** JSON pointer of the offending property ("/meshes/0/primitives/0/indices"), if any. */
  pointer?: string;
  /** Byte offset in the file, for issues in the binary container or data, if any. */
  offset?: number;
}

export interface ValidationSummary {
  errors: number;
  warnings: number;
  infos: number;
  hints: number;
  /** The first 10 issues, in the validator's order. */
  messages: ValidationIssue[];
  validatorVersion: string;
  /** The validator stopped at MAX_ISSUES; the counts cover only the issues it reported. */
  truncated: boolean;
}

/** Issues the validator reports at most (its counts stop there too: see `truncated`). */
export const MAX_ISSUES = 100;
/** Issues kept in the summary. */
export const SUMMARY_MESSAGES = 10;

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info', 'hint'];

function summarise(report: ValidationReport): ValidationSummary {
  const { issues } = report;
  return {
    errors: issues.numErrors,
    warnings: issues.numWarnings,
    infos: issues.numInfos,
    hints: issues.numHints,
    messages: issues.messages.slice(0, SUMMARY_MESSAGES).map((m) => {
      const issue: ValidationIssue = {
        code: m.code,
        message: m.message,
        severity: SEVERITIES[m.severity] ?? 'error',
      };
      if (typeof m.pointer === 'string') issue.pointer = m.pointer;
      if (typeof m.offset === 'number') issue.offset = m.offset;
      return issue;
    }),
    validatorVersion: report.validatorVersion,
    truncated: issues.truncated,
  };
}

/**
 * Validates GLB bytes with gltf-validator here, in this thread. The bytes are always read as
 * GLB, so anything else gets an error report (GLB_INVALID_MAGIC, GLB_UNEXPECTED_END_OF_HEADER)
 * rather than a rejection. External resources are not loaded: a GLB is self-contained.
 */
export async function validateInThread(bytes: Uint8Array): Promise<ValidationSummary> {
  const validator = await import('gltf-validator');
  let report: ValidationReport;
  try {
    // dart2js checks the class: a Node Buffer or a view from another realm is refused.
    const data = bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes);
    report = await validator.validateBytes(data, {
      format: 'glb',
      maxIssues: MAX_ISSUES,
      writeTimestamp: false,
      externalResourceFunction: (uri) =>
        Promise.reject(new Error(`external resources are not loaded (${uri})`)),
    });
  } catch (error) {
    // The validator rejects with a plain string when it cannot even start.
    throw new Error(
      `gltf-validator could not validate the file: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return summarise(report);
}
