import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Where the kernel takes the local ports of outgoing connections from (Linux's default when it
 * cannot be read). A port found free inside it can be given to some process's connection before
 * the server it was found for binds it; below it, only another listener can take it.
 */
export function ephemeralRange(
  read: () => string = () => readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8'),
): [number, number] {
  try {
    const [low, high] = read().trim().split(/\s+/).map(Number);
    if (low && high && low <= high) return [low, high];
  } catch {
    // not Linux
  }
  return [32768, 60999];
}

/** The lowest port tried: below the well-known and most registered services'. */
const FLOOR = 10_000;

function tryListen(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(undefined));
    srv.listen(port, '127.0.0.1', () => {
      const address = srv.address();
      const bound = typeof address === 'object' && address ? address.port : undefined;
      srv.close(() => resolve(bound));
    });
  });
}

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now, chosen at random below the
 * ephemeral range (so no outgoing connection takes it meanwhile); any free port if none is.
 */
export async function freePort(): Promise<number> {
  const [low] = ephemeralRange();
  if (low - FLOOR >= 1000)
    for (let attempt = 0; attempt < 20; attempt++) {
      const port = await tryListen(FLOOR + Math.floor(Math.random() * (low - FLOOR)));
      if (port) return port;
    }
  const port = await tryListen(0);
  if (!port) throw new Error('no free TCP port on 127.0.0.1');
  return port;
}
