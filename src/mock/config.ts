import { z } from 'zod';
import { DEFAULT_MOCK_KEYS, MockKeysSchema } from './keys.ts';
import { SpeedNameSchema } from './speed.ts';

/** The mock's environment variables (DESIGN.md "Configuration"), shared by its main and the server's. */
export const MockEnvSchema = z.object({
  MOCK_KEYS: z.string().default(DEFAULT_MOCK_KEYS).pipe(MockKeysSchema),
  MOCK_SPEED: SpeedNameSchema.default('realistic'),
  /** Requests per minute per key before 429; 0 turns the limit off. */
  MOCK_RATE_LIMIT: z.coerce.number().int().nonnegative().default(600),
});
export type MockEnv = z.infer<typeof MockEnvSchema>;

/** One line per bad variable, naming it: `MOCK_SPEED: expected one of fast|realistic|instant`. */
export function formatEnvError(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(environment)'}: ${i.message}`).join('\n');
}
