import pino from 'pino';
import pretty from 'pino-pretty';

export type Logger = pino.Logger;
export type LogFormat = 'json' | 'pretty';

/**
 * Kiln's log (issue 25): one JSON object per line (`time`, `level`, `msg`, and the fields a line
 * carries) when stdout is not a terminal, readable lines on a terminal; LOG_FORMAT and LOG_LEVEL
 * override. Keys are never logged: a request's key is a short fingerprint of its owner id.
 */
export function createLogger(
  options: {
    format?: LogFormat | undefined;
    level?: string | undefined;
    /** Where lines go (tests): default stdout. */
    destination?: NodeJS.WritableStream;
  } = {},
): Logger {
  const format = options.format ?? (process.stdout.isTTY ? 'pretty' : 'json');
  const base = {
    level: options.level ?? 'info',
    base: { service: 'kiln' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (format === 'pretty')
    return pino(
      base,
      pretty({
        colorize: Boolean(process.stdout.isTTY),
        sync: true,
        ignore: 'pid,hostname,service',
        translateTime: 'HH:MM:ss',
        destination: options.destination ?? 1,
      }),
    );
  return pino(base, options.destination ?? pino.destination({ sync: false }));
}
