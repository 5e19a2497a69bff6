// Operating Kiln on the real stack (issue 25): metrics scraped from both replicas under load
// (and never through nginx, issue 31), readiness flipped by stopping PostgreSQL, and a replica
// stopped with SIGTERM under load with no failed request through nginx, its sync create answered
// rather than dropped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '../async/index.ts';
import { TaskSchema } from '../contract/index.ts';
import { statusOnceBack, whileDatabaseStopped } from '../testing/database-stopped.ts';
import { STACK_KEY, startStack, type Stack } from '../testing/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    replicas: 2,
    mockSpeed: 'realistic',
    env: { METRICS_TOKEN: 'scale-test-metrics-token', SHUTDOWN_GRACE: '30s' },
  });
});
afterAll(() => stack?.stop());

const json = { authorization: `Bearer ${STACK_KEY}`, 'content-type': 'application/json' };
const metricsAuth = { authorization: 'Bearer scale-test-metrics-token' };

describe('operating Kiln, on PostgreSQL, S3 and two replicas behind nginx', () => {
  it('each replica answers /metrics (with the token) counting what it served', async () => {
    for (let i = 0; i < 20; i++)
      await fetch(`${stack.url}/api/library?limit=1`, { headers: json }).then((r) =>
        r.arrayBuffer(),
      );
    for (const replica of stack.replicas) {
      expect((await fetch(`${replica.url}/metrics`)).status).toBe(401);
      const res = await fetch(`${replica.url}/metrics`, { headers: metricsAuth });
      expect(res.status).toBe(200);
      const text = await res.text();
      // Round-robin: both served library reads; the pool's gauges are PostgreSQL's.
      expect(text).toMatch(
        /kiln_http_requests_total\{route="\/api\/library",method="GET",status="200"\} \d+/,
      );
      expect(text).toMatch(/kiln_db_pool_connections\{state="in_use"\} \d+/);
      expect(text).toMatch(/kiln_db_pool_connections\{state="waiting"\} 0/);
      expect(text).not.toContain(STACK_KEY);
    }
  });

  it('/metrics is not served through nginx, token or not; each replica answers a direct scrape', async () => {
    const before = stack.accessLog().length;
    for (const path of ['/metrics', '/metrics?name=kiln_http_requests_total', '//metrics'])
      for (const headers of [{}, metricsAuth]) {
        const res = await fetch(`${stack.url}${path}`, { headers });
        expect(res.status, path).toBe(404);
        expect(await res.text()).not.toContain('kiln_http_requests_total');
      }
    // nginx answered them itself: no replica saw one.
    const lines = stack.accessLog().slice(before);
    expect(lines.filter((l) => l.uri === '/metrics')).toHaveLength(6);
    expect(lines.every((l) => l.upstream === '-')).toBe(true);
    for (const replica of stack.replicas) {
      const res = await fetch(`${replica.url}/metrics`, { headers: metricsAuth });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('kiln_http_requests_total');
      // A proxy that passed it on anyway (its X-Forwarded-For) gets the replica's own 404.
      const forwarded = { 'x-forwarded-for': '203.0.113.7' };
      expect((await fetch(`${replica.url}/metrics`, { headers: forwarded })).status).toBe(404);
    }
  });

  it('readiness turns 503 naming the database while PostgreSQL is stopped, and back', async () => {
    for (const replica of stack.replicas)
      expect((await fetch(`${replica.url}/api/ready`)).status).toBe(200);
    await whileDatabaseStopped(stack, async (replica) => {
      let res = await fetch(`${replica.url}/api/ready`);
      for (let i = 0; res.status !== 503 && i < 20; i++) {
        await sleep(200);
        res = await fetch(`${replica.url}/api/ready`);
      }
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({
        ready: false,
        checks: { database: 'down', file_store: 'ok' },
      });
    });
    for (const replica of stack.replicas)
      expect(await statusOnceBack(replica, '/api/ready')).toBe(200);
  });

  it('SIGTERM to a replica under load: no failed request through nginx, its sync create answered, exit 0', async () => {
    const a = stack.replicas[0]!;
    // A sync create in flight on A (the realistic mock takes about 35 s): A must answer it.
    const sync = fetch(`${a.url}/api/v1/3d/generations`, {
      method: 'POST',
      headers: { ...json, 'idempotency-key': `sigterm-sync-${Date.now()}` },
      body: JSON.stringify({ model: 'beta-text', prompt: 'a slow vase', mode: 'sync' }),
    });
    // Load through nginx: reads and creates, no retries, while A stops.
    let stop = false;
    const failures: string[] = [];
    let answered = 0;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const res =
          i % 5 === 4
            ? await fetch(`${stack.url}/api/v1/3d/generations`, {
                method: 'POST',
                headers: { ...json, 'idempotency-key': `sigterm-${w}-${i}-${Date.now()}` },
                body: JSON.stringify({ model: 'beta-text', prompt: `load ${w} ${i}` }),
              }).catch((e: unknown) => ({ status: 0, text: () => Promise.resolve(String(e)) }))
            : await fetch(`${stack.url}/api/library?limit=5`, { headers: json }).catch(
                (e: unknown) => ({ status: 0, text: () => Promise.resolve(String(e)) }),
              );
        const body = await res.text();
        if (res.status >= 500 || res.status === 0)
          failures.push(`${res.status} ${body.slice(0, 120)}`);
        answered++;
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(worker));
    await sleep(1500);
    const child = a.process!.child;
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    const sentAt = Date.now();
    child.kill('SIGTERM');
    const answer = await sync;
    // Answered, not dropped: the pending shape (to poll on any replica), or the finished task.
    expect([200, 202]).toContain(answer.status);
    const task = TaskSchema.parse(await answer.json());
    expect(Date.now() - sentAt).toBeLessThan(10_000);
    const code = await exited;
    expect(code).toBe(0);
    expect(a.process!.output()).toMatch(/SIGTERM: shutting down gracefully/);
    await sleep(1500);
    stop = true;
    await load;
    expect(answered).toBeGreaterThan(20);
    expect(failures).toEqual([]);
    // The task goes on upstream and is polled to its end through nginx (B).
    let polled = task;
    for (let i = 0; polled.status === 'pending' && i < 120; i++) {
      await sleep(1000);
      polled = TaskSchema.parse(
        await (await fetch(`${stack.url}/api/v1/tasks/${task.id}`, { headers: json })).json(),
      );
    }
    expect(polled.status).toBe('completed');
    await stack.startReplica(0);
  }, 240_000);
});
