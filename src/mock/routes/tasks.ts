import { Hono } from 'hono';
import { ERROR_CODES } from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import type { KeyEnv } from '../auth.ts';
import { presentTask } from '../present-task.ts';
import type { MockStore } from '../store.ts';

/** `GET /tasks/{id}`: the caller's own task, as it stands (another key's is not found). */
export function taskRoutes(store: MockStore) {
  return new Hono<KeyEnv>().get('/tasks/:id', async (c) => {
    const id = c.req.param('id');
    const task = await store.task(id);
    if (!task || task.keyHash !== c.get('keyHash'))
      throw new ApiError(404, {
        code: ERROR_CODES.taskNotFound,
        message: `No task with id ${JSON.stringify(id.slice(0, 100))}.`,
        param: 'taskId',
      });
    return c.json(await presentTask(store, c.req.url, task));
  });
}
