import { describe, expect, it } from 'vitest';
import { ShareOwnershipSchema, ShareSchema } from '../../contract/index.ts';
import { KEY, finishedTask, serverPerTest } from '../../testing/server.ts';
import { newShareToken } from './service.ts';

const startServer = serverPerTest();

describe('GET /api/shares/{token}/mine', () => {
  it('answers the owner with the task, anyone else (or a revoked link) 404, no key 401', async () => {
    const server = await startServer();
    const id = await finishedTask(server, { model: 'beta-text', prompt: 'a small red vase' });
    const link = ShareSchema.parse(
      await (await server.request(`/api/library/${id}/share`, { method: 'POST' })).json(),
    );
    const mine = (key: string | null, token = link.token) =>
      server.request(`/api/shares/${token}/mine`, { key });

    const own = await mine(KEY);
    expect(own.status).toBe(200);
    expect(own.headers.get('cache-control')).toBe('no-store');
    expect(ShareOwnershipSchema.parse(await own.json())).toEqual({
      object: 'share_ownership',
      task_id: id,
    });

    // Another key: the same 404 as a link that does not exist.
    const other = await mine('tr_other_key');
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { code: 'share_not_found' } });
    expect((await mine(KEY, newShareToken())).status).toBe(404);
    expect((await mine(KEY, 'not-a-token')).status).toBe(404);

    const anonymous = await mine(null);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 'missing_api_key' } });

    await server.request(`/api/library/${id}/share`, { method: 'DELETE' });
    expect((await mine(KEY)).status).toBe(404);
  });
});
