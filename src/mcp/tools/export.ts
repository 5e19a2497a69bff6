// `export_model`: an archived model made ready for a target with Kiln's optimiser presets (web:
// Web and AR, game: a game engine, print: a watertight STL in millimetres), waited for with
// progress notifications; the answer is the file's download address and its facts before and after.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  OPTIMISE_LIMITS,
  PRINT_DEFAULT_HEIGHT_MM,
  TEXTURE_SIZES,
  type OptimiseJob,
  type OptimiseRequestInput,
} from '../../contract/index.ts';
import { progressFor, type Extra, type McpContext } from '../context.ts';
import { answer, guarded, refusal, ToolInputError } from '../results.ts';
import { modelId } from './library.ts';

const TARGETS = ['web', 'game', 'print'] as const;
/** The longest an export is waited for: past the optimiser's own limit (2 minutes). */
const EXPORT_WAIT_MS = 150_000;
const EXPORT_POLL_MS = 500;

const exportInput = z.strictObject({
  id: modelId,
  target: z
    .enum(TARGETS, { error: `target must be one of ${TARGETS.join(', ')}.` })
    .describe(
      'web: Web and AR (50k triangles, WebP textures, meshopt); game: a game engine (triangles and texture_size to choose); print: a watertight STL in millimetres, at height_mm.',
    ),
  triangles: z
    .number({ error: 'triangles must be a number.' })
    .int({ error: 'triangles must be a whole number.' })
    .min(OPTIMISE_LIMITS.triangles.min, {
      error: `triangles must be at least ${OPTIMISE_LIMITS.triangles.min}.`,
    })
    .max(OPTIMISE_LIMITS.triangles.max, {
      error: `triangles must be at most ${OPTIMISE_LIMITS.triangles.max}.`,
    })
    .optional()
    .describe('game and print: simplify to at most this many triangles (game default 20,000).'),
  texture_size: z
    .union(
      TEXTURE_SIZES.map((s) => z.literal(s)),
      { error: `texture_size must be one of ${TEXTURE_SIZES.join(', ')}.` },
    )
    .optional()
    .describe('game: the largest texture side in pixels (default 2048).'),
  height_mm: z
    .number({ error: 'height_mm must be a number of millimetres.' })
    .optional()
    .describe(`print: the printed height in millimetres (default ${PRINT_DEFAULT_HEIGHT_MM}).`),
});
type ExportArgs = z.infer<typeof exportInput>;

/** The optimiser's request for a target; an option the target does not take is refused by name. */
function requestFor(args: ExportArgs): OptimiseRequestInput {
  const takes: Record<(typeof TARGETS)[number], readonly string[]> = {
    web: [],
    game: ['triangles', 'texture_size'],
    print: ['triangles', 'height_mm'],
  };
  for (const option of ['triangles', 'texture_size', 'height_mm'] as const)
    if (args[option] !== undefined && !takes[args.target].includes(option))
      throw new ToolInputError(option, `the ${args.target} target does not take ${option}.`);
  if (args.target === 'web') return { preset: 'web' };
  if (args.target === 'game')
    return {
      preset: 'game',
      ...(args.triangles !== undefined ? { triangles: args.triangles } : {}),
      ...(args.texture_size !== undefined ? { texture_size: args.texture_size } : {}),
    };
  return {
    preset: 'print',
    height_mm: args.height_mm ?? PRINT_DEFAULT_HEIGHT_MM,
    ...(args.triangles !== undefined ? { triangles: args.triangles } : {}),
  };
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Polls the job until it ends (or the wait is over), telling its progress. */
async function finished(ctx: McpContext, jobId: string, extra: Extra): Promise<OptimiseJob> {
  const report = progressFor(extra);
  const until = Date.now() + EXPORT_WAIT_MS;
  let job = await ctx.api.optimise.job(jobId);
  while (job.status !== 'succeeded' && job.status !== 'failed' && Date.now() < until) {
    report(job.progress, job.stage);
    extra.signal.throwIfAborted();
    await pause(ctx.pollMs ?? EXPORT_POLL_MS);
    job = await ctx.api.optimise.job(jobId);
  }
  report(100, job.stage);
  return job;
}

export function registerExport(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'export_model',
    {
      title: 'Export a model for a target',
      description:
        'Makes a copy of a model for the web (and AR), a game engine, or a 3D printer (STL), waits for it with progress notifications, and answers the file’s download URL and its facts before and after.',
      inputSchema: exportInput,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    (args, extra) =>
      guarded({ notFound: 'id', params: { preset: 'target' } }, async () => {
        const { job_id } = await ctx.api.optimise.start(args.id, requestFor(args));
        const job = await finished(ctx, job_id, extra);
        if (job.status === 'failed' || !job.result)
          return refusal(
            undefined,
            job.status === 'failed'
              ? `The export failed: ${job.error?.message ?? 'no reason was given'}`
              : `The export is still running after ${EXPORT_WAIT_MS / 1000} s (job ${job.id}).`,
          );
        const r = job.result;
        return answer({
          id: args.id,
          target: args.target,
          format: r.format,
          download_url: ctx.api.url(r.url),
          bytes: r.bytes,
          before: r.before,
          after: r.after,
          watertight: r.watertight,
          notes: r.notes,
        });
      }),
  );
}
