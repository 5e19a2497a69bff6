// `--help` for a command (and `kiln help`): its text on stdout, or `{"help": "…"}` with --json.
import { HELP } from '../help.ts';
import { printJson, type Io } from '../io.ts';

export function showHelp(io: Io, command: string, json: boolean | undefined): number {
  const text = HELP[command] ?? HELP.kiln!;
  if (json) printJson(io, { help: text });
  else io.out(`${text}\n`);
  return 0;
}
