// `kiln export ID --target web|game|print`: one of Kiln's optimise presets on the model's kept
// copy, the job followed on stderr, the file (a GLB, or for print a watertight STL in
// millimetres) downloaded to --out (default: the model's own file name with what it is for).
import { sleep } from '../../async/index.ts';
import type { KilnApi } from '../../client/kiln/index.ts';
import {
  OPTIMISE_LIMITS,
  OptimiseRequestSchema,
  PRINT_DEFAULT_HEIGHT_MM,
  type OptimiseJob,
  type OptimisePlan,
  type OptimiseRequestInput,
} from '../../contract/index.ts';
import { numberFlag, oneOfFlag, parseCommand, positionals } from '../args.ts';
import { connect } from '../connect.ts';
import { CliFailure, UsageError } from '../exit.ts';
import { printJson, say, type Io } from '../io.ts';
import { modelFileName, outFile, outTarget, writeOut } from '../model-file.ts';
import { createBoard } from '../progress.ts';
import { showHelp } from './help.ts';

const OPTIONS = {
  target: { type: 'string' },
  'height-mm': { type: 'string' },
  out: { type: 'string' },
} as const;

const TARGETS = ['web', 'game', 'print'] as const;

/** The job's body, checked by the contract's schema before it is sent. */
function requestOf(target: string | undefined, heightMm: string | undefined): OptimiseRequestInput {
  const preset = oneOfFlag(target, '--target', TARGETS);
  if (!preset) throw new UsageError('--target', `is missing: ${TARGETS.join(', ')}.`);
  const height = numberFlag(heightMm, '--height-mm', OPTIMISE_LIMITS.heightMm);
  if (height !== undefined && preset !== 'print')
    throw new UsageError('--height-mm', 'is for --target print only.');
  const body: OptimiseRequestInput =
    preset === 'print' ? { preset, height_mm: height ?? PRINT_DEFAULT_HEIGHT_MM } : { preset };
  const checked = OptimiseRequestSchema.safeParse(body);
  if (!checked.success)
    throw new UsageError('--target', checked.error.issues[0]?.message ?? 'is not valid.');
  return body;
}

/** "…-web.glb", "…-print-100mm.stl": the model's file name with what the copy is for. */
function exportFileName(modelFile: string, plan: OptimisePlan): string {
  const base = modelFile.replace(/\.glb$/i, '');
  const mm = Math.round((plan.height_m ?? 0) * 10_000) / 10;
  const suffix = plan.preset === 'print' ? `print-${mm}mm` : plan.preset;
  return `${base}-${suffix}.${plan.output}`;
}

/** Polls the job to its end, a progress line on stderr. */
async function followJob(
  api: KilnApi,
  io: Io,
  jobId: string,
  label: string,
  pollMs: number,
): Promise<OptimiseJob> {
  const board = createBoard(io, [label]);
  try {
    for (;;) {
      const job = await api.optimise.job(jobId);
      const done = job.status === 'succeeded' || job.status === 'failed';
      board.set(0, done ? { text: job.status } : { progress: job.progress, text: job.stage });
      if (done) return job;
      await sleep(pollMs);
    }
  } finally {
    board.finish();
  }
}
export async function exportCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals: given } = parseCommand('export', args, OPTIONS);
  if (values.help) return showHelp(io, 'export', values.json);
  const [id] = positionals(given, ['ID']);
  const request = requestOf(values.target, values['height-mm']);
  const target = outTarget(values.out, io.cwd);
  const conn = connect(values, io);

  const entry = await conn.api.library.get(id!);
  const { job_id } = await conn.api.optimise.start(id!, request);
  const pollMs = typeof conn.pollMs === 'number' ? conn.pollMs : 500;
  const job = await followJob(conn.api, io, job_id, `${id} → ${request.preset}`, pollMs);
  if (job.status !== 'succeeded' || !job.result)
    throw new CliFailure(
      'failed',
      `the export failed: ${job.error?.message ?? 'no file'}`,
      undefined,
      job.error?.code ?? undefined,
      { job_id },
    );
  const { bytes } = await conn.api.download(job.result.url);
  const file = outFile(target, exportFileName(modelFileName(entry), job.plan));
  writeOut(file, bytes);

  const { result } = job;
  if (values.json)
    printJson(io, {
      id,
      job_id,
      target: request.preset,
      file,
      format: result.format,
      bytes: bytes.byteLength,
      before: result.before,
      after: result.after,
      watertight: result.watertight,
      notes: result.notes,
    });
  else {
    say(
      io,
      `${result.before.triangles} → ${result.after.triangles} triangles, ${result.before.bytes} → ${result.after.bytes} bytes.`,
    );
    for (const note of result.notes) say(io, note);
    io.out(`${file}\n`);
  }
  return 0;
}
