// Arguments with node:util's parseArgs, strict: an unknown flag, a flag without its value or a
// value the flag does not take is a UsageError naming that flag. The flags every command takes
// (--json, --help, --key, --kiln) are added here, once.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './exit.ts';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

const COMMON_OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  key: { type: 'string' },
  kiln: { type: 'string' },
} as const satisfies OptionsConfig;

/** parseArgs's refusal as a UsageError naming the flag it is about. */
function usageOf(command: string, err: unknown): UsageError {
  const code = (err as { code?: string }).code;
  const message = err instanceof Error ? err.message : String(err);
  const flag = /'(-{1,2}[^'\s=]+)/.exec(message)?.[1] ?? 'arguments';
  const help = `\`kiln ${command} --help\` lists its flags`;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return new UsageError(flag, `unknown flag for kiln ${command} (${help}).`);
  if (/does not take an argument/.test(message)) return new UsageError(flag, 'takes no value.');
  if (/argument missing|ambiguous/.test(message))
    return new UsageError(
      flag,
      'needs a value (a value starting with "-" is written --flag=value).',
    );
  return new UsageError(flag, `${message} (${help}).`);
}

interface Config<O extends OptionsConfig> {
  args: string[];
  options: typeof COMMON_OPTIONS & O;
  strict: true;
  allowPositionals: true;
}

/** The command's flags and positional arguments, or a UsageError naming the flag at fault. */
export function parseCommand<const O extends OptionsConfig>(
  command: string,
  args: string[],
  options: O,
): ReturnType<typeof parseArgs<Config<O>>> {
  try {
    return parseArgs<Config<O>>({
      args,
      options: { ...COMMON_OPTIONS, ...options },
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    throw usageOf(command, err);
  }
}

/**
 * `value` as a number within min–max (`whole`: no decimals), or a UsageError naming `flag`;
 * undefined when the flag was not given.
 */
export function numberFlag(
  value: string | undefined,
  flag: string,
  range: { min: number; max: number; whole?: boolean },
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  const { min, max, whole = false } = range;
  const shaped = whole ? /^\s*-?\d+\s*$/.test(value) : value.trim() !== '' && Number.isFinite(n);
  if (!shaped || n < min || n > max)
    throw new UsageError(
      flag,
      `must be a ${whole ? 'whole number' : 'number'} from ${min} to ${max}, not "${value}".`,
    );
  return n;
}

/** `value` when it is one of `allowed`, or a UsageError naming `flag` and what it takes. */
export function oneOfFlag<const T extends readonly string[]>(
  value: string | undefined,
  flag: string,
  allowed: T,
): T[number] | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(flag, `must be one of ${allowed.join(', ')}, not "${value}".`);
  return value as T[number];
}

/** Exactly the positional arguments `names` (the last may repeat when `rest`), else UsageError. */
export function positionals(
  given: string[],
  names: readonly string[],
  options: { rest?: boolean; optional?: boolean } = {},
): string[] {
  if (given.length < names.length && !options.optional)
    throw new UsageError(names[given.length] ?? 'arguments', 'is missing.');
  if (given.length > names.length && !options.rest)
    throw new UsageError(
      given[names.length] ?? 'arguments',
      'is an argument this command does not take.',
    );
  return given;
}
