import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ownerHasher } from '../owner-id.ts';
import { onApiError } from '../../http/index.ts';
import { owner, type OwnerEnv } from './owner.ts';

const ownerOf = ownerHasher(Buffer.alloc(32, 1));
const app = new Hono<OwnerEnv>()
  .onError(onApiError(() => {}))
  .get('/maybe', owner(ownerOf), (c) => c.json({ owner: c.var.owner ?? null }))
  .get('/must', owner(ownerOf, { required: 'to see this' }), (c) => c.json({ owner: c.var.owner }));

describe('owner middleware', () => {
  it('sets c.var.owner to the HMAC of the bearer key, never the key', async () => {
    const res = await app.request('/maybe', { headers: { authorization: 'Bearer tr_abc' } });
    const { owner: o } = (await res.json()) as { owner: string };
    expect(o).toBe(ownerOf('tr_abc'));
    expect(o).not.toContain('tr_abc');
    expect(await (await app.request('/maybe')).json()).toEqual({ owner: null });
  });

  it('answers 401 missing_api_key when a key is required', async () => {
    const res = await app.request('/must', { headers: { authorization: 'Basic x' } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      error: { code: 'missing_api_key', type: 'authentication_error' },
    });
    expect((await app.request('/must', { headers: { authorization: 'Bearer tr_x' } })).status).toBe(
      200,
    );
  });
});
