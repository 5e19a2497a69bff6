// The Grafana dashboard of docs/ is built on the metrics Kiln really has.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.ts';

describe('docs/grafana-kiln.json', () => {
  it('queries only metrics Kiln exports, and every Kiln metric has a panel', async () => {
    const dashboard = JSON.parse(
      readFileSync(new URL('../../../docs/grafana-kiln.json', import.meta.url), 'utf8'),
    ) as { panels: { title: string; targets: { expr: string }[] }[] };
    const metrics = createMetrics();
    const exported = new Set((await metrics.registry.getMetricsAsJSON()).map((m) => m.name));
    const used = new Set<string>();
    for (const panel of dashboard.panels)
      for (const { expr } of panel.targets)
        for (const name of expr.match(/\b(kiln|process|nodejs)_[a-z0-9_]+/g) ?? [])
          used.add(name.replace(/_(bucket|sum|count)$/, ''));
    for (const name of used) expect(exported, name).toContain(name);
    for (const name of exported)
      if (name.startsWith('kiln_')) expect(used, `a panel for ${name}`).toContain(name);
  });
});
