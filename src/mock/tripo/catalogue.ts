// What the Tripo mock knows of the vendor's published facts: model versions, prices, error codes,
// timings and the demo keys. Every fact cites its source in README.md ("Sources").
import type { KeyGrant } from '../keys.ts';

/** Demo keys in Tripo's documented format (`tsk_` prefix), with their starting credits. */
export const TRIPO_DEMO_KEYS: readonly KeyGrant[] = [
  { key: 'tsk_kiln_demo_tripo', balance: 2000 },
  { key: 'tsk_kiln_demo_tripo_poor', balance: 15 },
];

/** The task types the mock runs (the generation ones Kiln uses). */
export const TASK_TYPES = ['text_to_model', 'image_to_model', 'multiview_to_model'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

/** `model_version` values the generation docs and the official SDK list; the first is the default. */
export const MODEL_VERSIONS = [
  'v2.5-20250123',
  'v3.1-20260211',
  'v3.0-20250812',
  'v2.0-20240919',
  'v1.4-20240625',
  'Turbo-v1.0-20250506',
  'P1-20260311',
] as const;
/** Listed as deprecated: a task with it is refused with code 2015. */
export const DEPRECATED_VERSIONS: readonly string[] = ['v1.3-20240522'];

/** Multiview takes neither Turbo nor v1.4 (generation docs, SDK `multiview_to_model`). */
export const NOT_FOR_MULTIVIEW: readonly string[] = ['Turbo-v1.0-20250506', 'v1.4-20240625'];

/** Pricing page: credits per task, by type, for H-series (and others) and P1, without / with texture. */
const BASE_PRICE: Record<TaskType, { h: [number, number]; p1: [number, number] }> = {
  image_to_model: { h: [20, 30], p1: [40, 50] },
  text_to_model: { h: [10, 20], p1: [30, 40] },
  multiview_to_model: { h: [20, 30], p1: [40, 50] },
};

/** The options that change a task's price, as the create body carries them. */
export interface PricedOptions {
  model_version?: string | undefined;
  texture?: boolean | undefined;
  pbr?: boolean | undefined;
  texture_quality?: string | undefined;
  smart_low_poly?: boolean | undefined;
  quad?: boolean | undefined;
  generate_parts?: boolean | undefined;
}

/**
 * A task's price in credits: the base by type, series and texture (texture and pbr default to
 * true; pbr=true means textured), plus the H-series extras the pricing page lists.
 */
export function priceOf(type: TaskType, options: PricedOptions): number {
  const p1 = (options.model_version ?? '').startsWith('P1-');
  const textured = options.pbr !== false || options.texture !== false;
  const [plain, withTexture] = BASE_PRICE[type][p1 ? 'p1' : 'h'];
  let price = textured ? withTexture : plain;
  if (!p1) {
    if (textured && options.texture_quality === 'detailed') price += 10;
    if (options.smart_low_poly === true) price += 10;
    if (options.quad === true) price += 5;
    if (options.generate_parts === true) price += 20;
  }
  return price;
}

/** The error catalogue (error-handling page and the generation page's tables). */
export const ERRORS = {
  1000: [500, 'Unknown error on sever side', 'Please contact the support with request id'],
  1002: [
    401,
    'Authentication failed',
    'Check if your credentials is valid, and ensure you set it correctly',
  ],
  1003: [400, 'The request body is malformed', 'Refer to the API documentation for request schema'],
  1004: [
    400,
    'One or more of your parameter is invalid',
    'Refer to the API documentation for parameter requirements',
  ],
  2000: [
    429,
    'You have exceeded the limit of generation',
    'Try again later. You can also check `Retry-After` header.',
  ],
  2001: [404, 'Task not found.', 'Please check if you passed the correct task id.'],
  2002: [400, 'The task type is unsupported.', 'Please check if you passed the correct task type.'],
  2003: [
    400,
    'The input file is empty.',
    'Please check if you passed file, or it’s may rejected by our firewall.',
  ],
  2004: [400, 'The file type is unsupported.', 'Please check if the file you input is supported.'],
  2010: [
    403,
    'You need more credits to start a new task.',
    'Please reivew your usage at Billing and purchase more credits.',
  ],
  2015: [
    400,
    'The version has been deprecated, please try higher version.',
    'Try higher version please.',
  ],
  2017: [
    400,
    'Invalid model version.',
    'The model_version parameter is invalid. Please check the available versions.',
  ],
  2019: [
    404,
    'File not found.',
    'The referenced file does not exist in storage. Please verify the file reference.',
  ],
} as const satisfies Record<number, readonly [number, string, string]>;
export type ErrorCode = keyof typeof ERRORS;

/** How long a task queues and runs. `fast`: about 2 s, for tests; `real`: about 45 s, for demos. */
export interface TripoTimings {
  queuedMs: number;
  runningMs: number;
}
export const TRIPO_SPEEDS = {
  fast: { queuedMs: 300, runningMs: 1_500 },
  real: { queuedMs: 5_000, runningMs: 40_000 },
} as const satisfies Record<string, TripoTimings>;

/** Task docs: result URLs expire "by default … after five minutes". */
export const RESULT_TTL_MS = 5 * 60_000;
/** Rate-limit page: at most 10 generation tasks queued or running per key (non-P1). */
export const CONCURRENCY_LIMIT = 10;
