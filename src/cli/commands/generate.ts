// `kiln generate`: one model from a photo, 2–4 views, image addresses or a prompt, its progress
// on stderr, the GLB written to --out (default: the model's own file name).
import type { KilnApi } from '../../client/kiln/index.ts';
import type { Collection, Task } from '../../contract/index.ts';
import { parseCommand, positionals } from '../args.ts';
import { collectionRef, ensureCollection } from '../collections.ts';
import { connect, type Connection } from '../connect.ts';
import { generateInput, checkName, type GenerateInput } from '../generate-input.ts';
import { sendImageUrl, sendPhoto } from '../inputs.ts';
import { printJson, say, type Io } from '../io.ts';
import { modelFileName, modelOf, outFile, outTarget, writeOut } from '../model-file.ts';
import { createBoard, taskState } from '../progress.ts';
import { createTask, fileTask, followTask, newIdempotencyKey, taskFailure } from '../tasks.ts';
import { showHelp } from './help.ts';

const OPTIONS = {
  model: { type: 'string' },
  out: { type: 'string' },
  name: { type: 'string' },
  collection: { type: 'string' },
  prompt: { type: 'string' },
  url: { type: 'string', multiple: true },
} as const;

/** The create's body: each photo uploaded (with its name), each address fetched by Kiln. */
async function bodyOf(api: KilnApi, input: GenerateInput) {
  if (input.prompt !== null) return { model: input.model, prompt: input.prompt };
  const urls: string[] = [];
  for (const photo of input.photos) urls.push(await sendPhoto(api, photo));
  for (const url of input.urls) urls.push(await sendImageUrl(api, url));
  return input.kind === 'image'
    ? { model: input.model, image_url: urls[0]! }
    : { model: input.model, image_urls: urls };
}

/** What the board calls the one line: the photo's name, "3 views", or "prompt". */
function labelOf(input: GenerateInput): string {
  if (input.prompt !== null) return 'prompt';
  const names = [...input.photos.map((p) => p.name), ...input.urls];
  return names.length === 1 ? names[0]! : `${names.length} views`;
}

/** Sends the task, files it, follows it to its end with a progress line. */
async function makeTask(
  conn: Connection,
  io: Io,
  input: GenerateInput,
  filing: { name: string | null; collection: Collection | null },
): Promise<Task> {
  const { api } = conn;
  const body = await bodyOf(api, input);
  const created = await createTask(api, body, newIdempotencyKey());
  await fileTask(api, created.id, filing.name, filing.collection);
  const board = createBoard(io, [labelOf(input)]);
  const fromPrompt = input.prompt !== null;
  try {
    return await followTask(api, created.id, {
      pollMs: conn.pollMs,
      onTask: (task) => board.set(0, taskState(task, fromPrompt)),
    });
  } finally {
    board.finish();
  }
}

export async function generateCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals: given } = parseCommand('generate', args, OPTIONS);
  if (values.help) return showHelp(io, 'generate', values.json);
  const files = positionals(given, ['photo'], { rest: true, optional: true });
  const input = generateInput(values, files, io.cwd);
  const name = checkName(values.name);
  const target = outTarget(values.out, io.cwd);
  const conn = connect(values, io, input.model);
  const collection = values.collection ? await ensureCollection(conn.api, values.collection) : null;

  const task = await makeTask(conn, io, input, { name, collection });
  if (task.status !== 'completed') throw taskFailure(task);
  const { entry, bytes } = await modelOf(conn.api, task.id);
  const file = outFile(target, modelFileName(entry));
  writeOut(file, bytes);

  const credits = task.usage ?? null;
  if (values.json)
    printJson(io, {
      id: task.id,
      model: entry.model,
      status: task.status,
      name: entry.name ?? null,
      collection: collectionRef(collection),
      file,
      bytes: bytes.byteLength,
      credits_consumed: credits?.credits_consumed ?? null,
      credits_remaining: credits?.credits_remaining ?? null,
    });
  else {
    const cost = credits
      ? ` for ${credits.credits_consumed} credits (${credits.credits_remaining} left)`
      : '';
    say(io, `Made ${task.id} with ${entry.model}${cost}.`);
    io.out(`${file}\n`);
  }
  return 0;
}
