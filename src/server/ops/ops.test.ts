// Operating Kiln (issue 25): metric names and labels, the log's shape, request ids.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
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
