/**
 * The whole process's configuration (the server's variables and its built-in mock's) read from an
 * environment, or every problem with it, each line naming its variable. A pure function: main.ts
 * prints the problems and exits 2; tests try each bad value without starting a process.
 */
import { z } from 'zod';
import { MockEnvSchema, formatEnvError } from '../mock/config.ts';
import { DEMO_KEY } from '../mock/keys.ts';
import { ServerEnvSchema, crossChecks, withoutEmpty } from './config.ts';

const KilnEnvSchema = z.object({ ...ServerEnvSchema.shape, ...MockEnvSchema.shape });
type KilnEnv = z.infer<typeof KilnEnvSchema>;

export type KilnConfig =
  { ok: true; config: KilnEnv; demoKeyName: string } | { ok: false; problems: string };

export function readKilnConfig(env: NodeJS.ProcessEnv): KilnConfig {
  const parsed = KilnEnvSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) return { ok: false, problems: formatEnvError(parsed.error) };
  const config = parsed.data;
  const problems = crossChecks(config);
  if (problems.length > 0) return { ok: false, problems: problems.join('\n') };
  // Mock mode publishes one demo key: MOCK_DEMO_KEY, or tr_demo_kiln when MOCK_KEYS grants it.
  const demoKeyName = config.MOCK_DEMO_KEY ?? DEMO_KEY;
  if (config.MOCK_DEMO_KEY && !config.MOCK_KEYS.some((k) => k.key === demoKeyName))
    return { ok: false, problems: 'MOCK_DEMO_KEY: must be one of the keys in MOCK_KEYS' };
  return { ok: true, config, demoKeyName };
}
