import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralRange, freePort } from './ports.ts';

describe('freePort', () => {
  it('reads the kernel’s range for outgoing connections, or assumes Linux’s default', () => {
    expect(ephemeralRange(() => '40000\t50000\n')).toEqual([40000, 50000]);
    expect(ephemeralRange(() => 'nonsense')).toEqual([32768, 60999]);
    expect(
      ephemeralRange(() => {
        throw new Error('ENOENT');
      }),
    ).toEqual([32768, 60999]);
  });

  it('gives ports below that range that a server can then bind', async () => {
    const [low] = ephemeralRange();
    const ports = await Promise.all(Array.from({ length: 5 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(low);
      await new Promise<void>((resolve, reject) => {
        const srv = createServer();
        srv.once('error', reject);
        srv.listen(port, '127.0.0.1', () => srv.close(() => resolve()));
      });
    }
  });
});
