import { Hono } from 'hono';
import { MODEL_ALIASES, MODEL_INPUT, type ModelList } from '../../contract/index.ts';
import type { KeyEnv } from '../auth.ts';
import { CREDITS_PER_TASK, MODEL_DESCRIPTIONS } from '../pricing.ts';

/** `GET /models`: every model, its input and its price. */
export function modelRoutes() {
  return new Hono<KeyEnv>().get('/models', (c) => {
    const list: ModelList = {
      object: 'list',
      data: MODEL_ALIASES.map((id) => ({
        id,
        object: 'model',
        input: MODEL_INPUT[id],
        credits_per_task: CREDITS_PER_TASK[id],
        description: MODEL_DESCRIPTIONS[id],
      })),
    };
    return c.json(list);
  });
}
