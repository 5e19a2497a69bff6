// npm run ops:restore-drill: the restore drill of docs/operations.md on loopback, printed step by
// step. Starts a stack (PostgreSQL, s3rver, the mock, one replica, nginx), makes a task, backs
// the stack up, restores it elsewhere and checks a replica on the copy. Needs postgresql and nginx.
import { restoreDrill } from '../src/testing/restore-drill.ts';
import { STACK_KEY, startStack } from '../src/testing/stack.ts';

const stack = await startStack({ replicas: 1, mockSpeed: 'fast' });
const headers = { authorization: `Bearer ${STACK_KEY}`, 'content-type': 'application/json' };
try {
  await fetch(`${stack.url}/api/v1/3d/generations`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: 'beta-text', prompt: 'a drill vase', mode: 'sync' }),
  });
  await new Promise((r) => setTimeout(r, 2000));
  const before = (await (await fetch(`${stack.url}/api/library`, { headers })).json()) as {
    data: { id: string }[];
  };
  console.log(`stack: ${before.data.length} task(s) in the library`);
  const drill = await restoreDrill(stack);
  console.log(`backed up: ${drill.dumpBytes} bytes of pg_dump, ${drill.objects} bucket objects`);
  const after = (await (await fetch(`${drill.url}/api/library`, { headers })).json()) as {
    data: { id: string }[];
  };
  const same =
    JSON.stringify(after.data.map((e) => e.id)) === JSON.stringify(before.data.map((e) => e.id));
  console.log(
    `restored replica at ${drill.url}: ${after.data.length} task(s), ${same ? 'the same' : 'NOT the same'}`,
  );
  await drill.stop();
  process.exitCode = same ? 0 : 1;
} finally {
  await stack.stop();
}
