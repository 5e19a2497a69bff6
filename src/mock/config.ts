import type { VendorProvider } from '../contract/index.ts';
import { MOCKED_VENDORS } from './vendors.ts';
import { z } from 'zod';
import { DEFAULT_MOCK_KEYS, MockKeysSchema } from './keys.ts';
import { SpeedNameSchema } from './speed.ts';

/** The mock's environment variables (DESIGN.md "Configuration"), shared by its main and the server's. */
export const MockEnvSchema = z.object({
  MOCK_KEYS: z.string().default(DEFAULT_MOCK_KEYS).pipe(MockKeysSchema),
  MOCK_SPEED: SpeedNameSchema.default('realistic'),
  /** Requests per minute per key before 429; 0 turns the limit off. */
  MOCK_RATE_LIMIT: z.coerce.number().int().nonnegative().default(600),
  /** `1`: the mock may fetch images from private and loopback addresses (a LAN image server). */
  MOCK_ALLOW_PRIVATE_FETCH: z
    .enum(['0', '1', 'true', 'false'], { error: 'MOCK_ALLOW_PRIVATE_FETCH must be 1 or 0' })
    .default('0')
    .transform((v) => v === '1' || v === 'true'),
  /**
   * The vendors whose built-in mocks run beside the spec's in mock mode (issue 34): a comma list of
   * meshy, tripo, fal; `none` for none (the vendors' real APIs are then reached). All by default.
   */
  MOCK_PROVIDERS: z
    .string()
    .default(MOCKED_VENDORS.join(','))
    .transform((v, ctx) => {
      const names =
        v.trim() === 'none'
          ? []
          : v
              .split(',')
              .map((n) => n.trim())
              .filter(Boolean);
      const unknown = names.filter((n) => !(MOCKED_VENDORS as string[]).includes(n));
      if (unknown.length)
        ctx.addIssue({
          code: 'custom',
          message: `MOCK_PROVIDERS names ${unknown.join(', ')}; Kiln mocks ${MOCKED_VENDORS.join(', ')} (or none).`,
        });
      return names as VendorProvider[];
    }),
  /** The demo key /api/info and the start banner publish; only `tr_demo_kiln` otherwise. */
  MOCK_DEMO_KEY: z
    .string()
    .regex(/^tr_/, { error: 'MOCK_DEMO_KEY must start with tr_' })
    .optional(),
});

/** One line per bad variable, naming it: `MOCK_SPEED: expected one of fast|realistic|instant`. */
export function formatEnvError(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(environment)'}: ${i.message}`).join('\n');
}
