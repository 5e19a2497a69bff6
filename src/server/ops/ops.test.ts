// Operating Kiln (issue 25): metric names and labels, the log's shape, request ids.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../contract/index.ts';
import { createLogger } from './logger.ts';
import { upstreamOperation } from './upstream-metrics.ts';
import { KEY, post, pollUntilDone, serverPerTest } from '../../testing/server.ts';

const startServer = serverPerTest();

function captured() {
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean))
      lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return { logger: createLogger({ format: 'json', level: 'info', destination: stream }), lines };
}

const flush = () => new Promise((r) => setTimeout(r, 50));

describe('GET /metrics', () => {
  it('is Prometheus text with the process metrics, requests by route template, and Kiln’s own', async () => {
    const server = await startServer();
    const created = await server.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'a vase' }),
    );
    const { id } = (await created.json()) as { id: string };
    await pollUntilDone(server, id);
    await server.request(`/api/library/${id}`);
    await server.request('/api/library/task_not_there');
    const res = await server.request('/metrics', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    for (const name of [
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'kiln_http_requests_total',
      'kiln_http_request_duration_seconds_bucket',
      'kiln_upstream_requests_total',
      'kiln_upstream_request_duration_seconds_bucket',
      'kiln_tasks_finished_total',
      'kiln_archive_attempts_total',
      'kiln_archive_running',
      'kiln_archive_waiting',
      'kiln_uploads_total',
      'kiln_optimise_jobs',
      'kiln_optimise_jobs_finished_total',
    ])
      expect(text, name).toContain(name);
    // Route templates, never raw ids or keys.
    expect(text).toContain(
      'kiln_http_requests_total{route="/api/library/:id",method="GET",status="200"} 1',
    );
    expect(text).toContain(
      'kiln_http_requests_total{route="/api/library/:id",method="GET",status="404"} 1',
    );
    expect(text).not.toContain(id);
    expect(text).not.toContain('task_not_there');
    expect(text).not.toContain(KEY);
    expect(text).toMatch(/kiln_upstream_requests_total\{operation="create",status="202"\} 1/);
    expect(text).toMatch(/kiln_tasks_finished_total\{model="beta-text",outcome="completed"\} 1/);
    expect(text).toMatch(/kiln_archive_attempts_total\{outcome="archived"\} 1/);
  });

  it('needs the token when METRICS_TOKEN is set', async () => {
    const server = await startServer({ metricsToken: 'a-long-enough-metrics-token' });
    expect((await server.request('/metrics', { key: null })).status).toBe(401);
    expect(
      (await server.request('/metrics', { key: null, headers: { authorization: 'Bearer wrong' } }))
        .status,
    ).toBe(401);
    const ok = await server.request('/metrics', {
      key: null,
      headers: { authorization: 'Bearer a-long-enough-metrics-token' },
    });
    expect(ok.status).toBe(200);
  });
});

describe('GET /metrics through a proxy (decision 0094)', () => {
  // What a balancer adds on its way in: docs/deploy.md's nginx sets the first; others add the rest.
  const FORWARDED: Record<string, string>[] = [
    { 'x-forwarded-for': '203.0.113.7' },
    { forwarded: 'for=203.0.113.7;proto=https' },
    { 'x-real-ip': '203.0.113.7' },
    { 'x-forwarded-proto': 'https' },
    { 'x-forwarded-host': 'kiln.example.com' },
    { via: '1.1 balancer' },
  ];

  async function notThere(res: Response) {
    expect(res.status).toBe(404);
    const body = ErrorBodySchema.parse(await res.json());
    expect(body.error).toMatchObject({
      code: 'route_not_found',
      message: 'No route GET /metrics.',
    });
  }

  it('without METRICS_TOKEN: a direct scrape is answered, a proxied request is a 404 like any unknown route', async () => {
    for (const trustedProxies of [0, 1]) {
      const server = await startServer({ trustedProxies });
      const direct = await server.request('/metrics', { key: null });
      expect(direct.status, `TRUST_PROXY=${trustedProxies}`).toBe(200);
      expect(await direct.text()).toContain('kiln_http_requests_total');
      for (const headers of FORWARDED)
        await notThere(await server.request('/metrics', { key: null, headers }));
      // A bearer string is no way in when no token is set.
      await notThere(
        await server.request('/metrics', {
          headers: { 'x-forwarded-for': '203.0.113.7', authorization: 'Bearer anything-at-all' },
        }),
      );
    }
  });

  it('with METRICS_TOKEN: the token opens it through a proxy too; without it, proxied is 404 and direct 401', async () => {
    const token = 'a-long-enough-metrics-token';
    const server = await startServer({ metricsToken: token, trustedProxies: 1 });
    for (const headers of FORWARDED) {
      await notThere(await server.request('/metrics', { key: null, headers }));
      await notThere(
        await server.request('/metrics', {
          key: null,
          headers: { ...headers, authorization: 'Bearer wrong' },
        }),
      );
      const ok = await server.request('/metrics', {
        key: null,
        headers: { ...headers, authorization: `Bearer ${token}` },
      });
      expect(ok.status).toBe(200);
    }
    expect((await server.request('/metrics', { key: null })).status).toBe(401);
  });
});

describe('the log', () => {
  it('is one JSON object a line per request: time, level, msg, req_id, route, status, duration, key fingerprint', async () => {
    const { logger, lines } = captured();
    const server = await startServer({ logger });
    const res = await server.request('/api/library/task_x', {
      headers: { 'x-request-id': 'trace-42' },
    });
    expect(res.headers.get('x-request-id')).toBe('trace-42');
    await flush();
    const line = lines.find((l) => l.msg === 'request' && l.req_id === 'trace-42');
    expect(line).toMatchObject({
      level: 'info',
      msg: 'request',
      req_id: 'trace-42',
      method: 'GET',
      route: '/api/library/:id',
      status: 404,
      key: expect.stringMatching(/^key#[\w-]{8}$/),
    });
    expect(typeof line!.time).toBe('string');
    expect(typeof line!.duration_ms).toBe('number');
    expect(JSON.stringify(lines)).not.toContain(KEY);
  });

  it('makes a request id when none is given, or when the one given is not safe to keep', async () => {
    const { logger, lines } = captured();
    const server = await startServer({ logger });
    for (const given of [undefined, 'a b', 'x'.repeat(200), 'ok\u0007']) {
      const res = await server.request(
        '/api/health',
        given ? { headers: { 'x-request-id': given } } : {},
      );
      expect(res.headers.get('x-request-id')).toMatch(/^[\w-]{12}$/);
    }
    await flush();
    expect(lines.filter((l) => l.msg === 'request')).toEqual([]); // health checks are not logged
  });
});

describe('upstream operations', () => {
  it('are named by method and path, a bounded set', () => {
    expect(upstreamOperation('POST', '/v1/3d/generations')).toBe('create');
    expect(upstreamOperation('GET', '/v1/tasks/task_123')).toBe('get_task');
    expect(upstreamOperation('GET', '/mock/v1/models')).toBe('models');
    expect(upstreamOperation('GET', '/v1/other/thing')).toBe('other');
  });
});
