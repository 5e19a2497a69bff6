// `kiln share ID`: the model's public link (made once; the same link again after), or with
// --revoke the end of it (its page and files answer 404 at once).
import { NotFoundError } from '../../client/index.ts';
import { ERROR_CODES } from '../../contract/index.ts';
import { parseCommand, positionals } from '../args.ts';
import { connect } from '../connect.ts';
import { printJson, say, type Io } from '../io.ts';
import { showHelp } from './help.ts';

const OPTIONS = { revoke: { type: 'boolean' } } as const;

export async function shareCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals: given } = parseCommand('share', args, OPTIONS);
  if (values.help) return showHelp(io, 'share', values.json);
  const [id] = positionals(given, ['ID']);
  const { api } = connect(values, io);
  const link = api.shares.of(id!);

  if (values.revoke) {
    // A model that is not shared is already where --revoke leaves it: a script may repeat it.
    const revoked = await link.revoke().then(
      () => true,
      (err: unknown) => {
        if (err instanceof NotFoundError && err.code === ERROR_CODES.shareNotFound) return false;
        throw err;
      },
    );
    if (values.json) printJson(io, { id, revoked });
    else
      say(
        io,
        revoked
          ? `Stopped sharing ${id}: its link answers 404 from now on.`
          : `${id} was not shared.`,
      );
    return 0;
  }
  const share = await link.create();
  if (values.json) printJson(io, { id, ...share });
  else io.out(`${share.url}\n`);
  return 0;
}
