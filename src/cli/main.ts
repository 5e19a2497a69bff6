// `kiln <command>`: picks the command, runs it, and turns whatever it throws into the exit code
// and the one line a script can rely on (exit.ts). bin/kiln.mjs calls `main`.
import { batchCommand } from './commands/batch.ts';
import { creditsCommand } from './commands/credits.ts';
import { exportCommand } from './commands/export.ts';
import { generateCommand } from './commands/generate.ts';
import { showHelp } from './commands/help.ts';
import { lsCommand } from './commands/ls.ts';
import { shareCommand } from './commands/share.ts';
import { failureLine, failureOf, UsageError } from './exit.ts';
import { printJson, processIo, say, type Io } from './io.ts';

const COMMANDS: Readonly<Record<string, (args: string[], io: Io) => Promise<number>>> = {
  generate: generateCommand,
  batch: batchCommand,
  ls: lsCommand,
  export: exportCommand,
  share: shareCommand,
  credits: creditsCommand,
};

async function dispatch(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  const json = argv.includes('--json');
  if (name === undefined || name === '--help' || name === '-h' || name === '--json')
    return name === undefined ? usage(io) : showHelp(io, 'kiln', json);
  if (name === 'help') return showHelp(io, rest[0] ?? 'kiln', json);
  const command = COMMANDS[name];
  if (!command)
    throw new UsageError(
      'command',
      `"${name}" is not a kiln command (${Object.keys(COMMANDS).join(', ')}).`,
    );
  return command(rest, io);
}

/** `kiln` alone: what it takes, on stderr, and exit 2. */
function usage(io: Io): number {
  say(
    io,
    'kiln: command: is missing (generate, batch, ls, export, share, credits; kiln --help says more).',
  );
  return 2;
}

export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (err) {
    const failure = failureOf(err);
    say(io, failureLine(failure));
    if (argv.includes('--json')) printJson(io, { error: failure });
    return failure.exit_code;
  }
}
