// What a tool answers: its result as JSON (text for any host, and structured content), or a tool
// error (`isError`) whose first words name the field that was wrong, so an assistant can mend
// its call. Kiln's refusals keep their own sentence; their `param` is renamed to the tool's field.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  KilnError,
  NotFoundError,
} from '../client/index.ts';

/** A tool's answer: the value as pretty JSON text and as structured content. */
export function answer(value: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
    structuredContent: value,
  };
}

/** A tool error in words: `image_path: there is no file at /photos/chair.png.` */
export function refusal(field: string | undefined, message: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: field ? `${field}: ${message}` : message }],
  };
}

/** Bad input found by a tool itself: the field it names, and why. */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * How a tool names the fields of Kiln's refusals: Kiln's `param` → the tool's field, and
 * `notFound`, the field whose value named nothing (a 404 without a `param`).
 */
export interface FieldNames {
  params?: Readonly<Record<string, string>>;
  notFound?: string;
}

function fieldOf(err: APIError, names: FieldNames): string | undefined {
  const param = err.param?.replace(/\[\d+\]$/, '');
  if (param) return names.params?.[param] ?? names.params?.[err.param!] ?? param;
  if (err.status === 401 || err.status === 403) return 'authorization';
  if (err instanceof NotFoundError) return names.notFound;
  return undefined;
}

/** Any failure of a tool as its tool error. */
function toolErrorOf(err: unknown, names: FieldNames = {}): CallToolResult {
  if (err instanceof ToolInputError) return refusal(err.field, err.message);
  if (err instanceof APIError) return refusal(fieldOf(err, names), err.message);
  if (err instanceof APIUserAbortError) return refusal(undefined, 'The call was cancelled.');
  if (err instanceof APIConnectionError || err instanceof KilnError)
    return refusal(undefined, err.message);
  return refusal(undefined, `Kiln's MCP server failed: ${(err as Error)?.message ?? String(err)}`);
}

/** Runs a tool's body, turning what it throws into its tool error. */
export async function guarded(
  names: FieldNames,
  body: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await body();
  } catch (err) {
    return toolErrorOf(err, names);
  }
}
