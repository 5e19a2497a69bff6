import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Kiln's Prometheus metrics (issue 25), one registry per server app, with prom-client's default
 * process metrics. Labels are bounded: route templates (`/api/library/:id`, never an id or a
 * key), methods, status codes, model aliases, outcomes. docs/operations.md says what each means
 * and what normal looks like.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
  return {
    registry,
    httpRequests: new Counter({
      name: 'kiln_http_requests_total',
      help: 'HTTP requests answered, by route template, method and status.',
      labelNames: ['route', 'method', 'status'] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: 'kiln_http_request_duration_seconds',
      help: 'Time to answer an HTTP request (to its first byte), by route template and method.',
      labelNames: ['route', 'method'] as const,
      buckets: seconds,
      registers,
    }),
    ...outboundMetrics(registers, seconds),
    tasksFinished: new Counter({
      name: 'kiln_tasks_finished_total',
      help: 'Tasks seen to end, by model and outcome (completed, failed).',
      labelNames: ['model', 'outcome'] as const,
      registers,
    }),
    creditsRefunded: new Counter({
      name: 'kiln_credits_refunded_total',
      help: 'Credits the upstream refunded for failed tasks (at the model’s known price), by model.',
      labelNames: ['model'] as const,
      registers,
    }),
    archives: new Counter({
      name: 'kiln_archive_attempts_total',
      help: 'Archive downloads of completed models, by outcome (archived, retry, given_up, storage_outage).',
      labelNames: ['outcome'] as const,
      registers,
    }),
    archiveQueue: new Gauge({
      name: 'kiln_archive_running',
      help: 'Archive downloads under way in this process.',
      registers,
    }),
    archiveWaiting: new Gauge({
      name: 'kiln_archive_waiting',
      help: 'Completed tasks waiting for their archive, due now or later (every replica’s: read from the database).',
      registers,
    }),
    uploads: new Counter({
      name: 'kiln_uploads_total',
      help: 'Uploads, by outcome (stored, duplicate, refused, quota_full).',
      labelNames: ['outcome'] as const,
      registers,
    }),
    uploadBytes: new Counter({
      name: 'kiln_upload_bytes_total',
      help: 'Bytes of new uploads stored.',
      registers,
    }),
    optimiseJobs: new Gauge({
      name: 'kiln_optimise_jobs',
      help: 'Optimise jobs in this process, by state (queued, running).',
      labelNames: ['state'] as const,
      registers,
    }),
    optimiseFinished: new Counter({
      name: 'kiln_optimise_jobs_finished_total',
      help: 'Optimise jobs finished, by outcome (succeeded, failed).',
      labelNames: ['outcome'] as const,
      registers,
    }),
    dbPool: new Gauge({
      name: 'kiln_db_pool_connections',
      help: 'The database pool’s connections, by state (in_use, idle, waiting: requests waiting for one).',
      labelNames: ['state'] as const,
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Calls out: to the upstream (ops/upstream-metrics.ts) and to the vendors (ops/provider-metrics.ts). */
function outboundMetrics(registers: Registry[], seconds: number[]) {
  return {
    upstreamRequests: new Counter({
      name: 'kiln_upstream_requests_total',
      help: 'Calls to the upstream API, by operation and status (0: no answer, timeout: none in time).',
      labelNames: ['operation', 'status'] as const,
      registers,
    }),
    upstreamDuration: new Histogram({
      name: 'kiln_upstream_request_duration_seconds',
      help: 'Time the upstream took to answer, by operation.',
      labelNames: ['operation'] as const,
      buckets: seconds,
      registers,
    }),
    providerRequests: new Counter({
      name: 'kiln_provider_requests_total',
      help: 'Calls to a vendor (Meshy, Tripo, fal) through its adapter, by provider, operation and outcome (ok, or why not). Never by key.',
      labelNames: ['provider', 'operation', 'outcome'] as const,
      registers,
    }),
    providerDuration: new Histogram({
      name: 'kiln_provider_request_duration_seconds',
      help: 'Time a vendor took to answer through its adapter, by provider and operation.',
      labelNames: ['provider', 'operation'] as const,
      buckets: seconds,
      registers,
    }),
  };
}
