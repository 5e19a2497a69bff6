// `kiln credits`: the balance Kiln derives (true as of when it says), and with --history every
// charge, refund, stated figure and correction after it.
import type { BalancePoint, Credits } from '../../contract/index.ts';
import { parseCommand, positionals } from '../args.ts';
import { checkKey, connect } from '../connect.ts';
import { printJson, say, type Io } from '../io.ts';
import { showHelp } from './help.ts';

const OPTIONS = { history: { type: 'boolean' } } as const;

const when = (ms: number | null | undefined) =>
  ms == null ? 'an unknown time' : new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

function balanceLine(credits: Credits): string {
  if (credits.balance === null)
    return 'No balance yet: the upstream states one with the first task.';
  const exact = credits.exact ? 'exact' : '≈, not exact';
  return `Balance: ${credits.balance} credits, as of ${when(credits.as_of_ms ?? credits.learned_ms)} (${exact}).`;
}

function historyLine(p: BalancePoint): string {
  const change = p.change == null ? '' : p.change > 0 ? `+${p.change}` : String(p.change);
  return [
    when(p.learned_ms),
    (p.kind ?? '').padEnd(10),
    change.padStart(6),
    String(p.balance).padStart(7),
    p.task_id ?? '',
  ]
    .join('  ')
    .trimEnd();
}

export async function creditsCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals: given } = parseCommand('credits', args, OPTIONS);
  if (values.help) return showHelp(io, 'credits', values.json);
  positionals(given, []);
  const conn = connect(values, io);
  const { api } = conn;
  const credits = await api.credits();
  // No figure and no history: a key the upstream never saw, or a new one. A wrong key exits 3.
  if (credits.balance === null && credits.history.length === 0) await checkKey(conn);

  if (values.json) {
    printJson(io, credits);
    return 0;
  }
  io.out(`${balanceLine(credits)}\n`);
  if (credits.note) say(io, credits.note);
  if (values.history) io.out(credits.history.map((p) => `${historyLine(p)}\n`).join(''));
  return 0;
}
