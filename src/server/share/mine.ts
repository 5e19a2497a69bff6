// `GET /api/shares/{token}/mine`: whether a link is the caller's own (with the bearer key), for
// the share page to offer its owner what a visitor does not get (the turntable, decision 0088).
// The public answer never says who owns a link; this one says only "yours" (200, with the task)
// or, to anyone else, the 404 an unknown link gets: it tells a stranger nothing.
import { Hono } from 'hono';
import { ERROR_CODES, type ShareOwnership } from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { owner, ownerOf as theOwner, type OwnerEnv } from '../middleware/owner.ts';
import type { OwnerOf } from '../owner-id.ts';
import type { ShareStore } from '../storage/shares.ts';
import { isShareToken } from './service.ts';

export function shareOwnerRoutes(deps: {
  shares: Pick<ShareStore, 'ownedTask'>;
  ownerOf: OwnerOf;
}) {
  const app = new Hono<OwnerEnv>();
  app.use(
    '/shares/:token/mine',
    owner(deps.ownerOf, { required: 'to ask whether a link is yours' }),
  );
  app.get('/shares/:token/mine', async (c) => {
    const token = c.req.param('token');
    const taskId = isShareToken(token)
      ? await deps.shares.ownedTask(theOwner(c), token)
      : undefined;
    if (taskId === undefined)
      throw new ApiError(
        404,
        { code: ERROR_CODES.shareNotFound, message: 'You have no link at this address.' },
        { headers: { 'Cache-Control': 'no-store' } },
      );
    const body: ShareOwnership = { object: 'share_ownership', task_id: taskId };
    return c.json(body, 200, { 'Cache-Control': 'no-store' });
  });
  return app;
}
