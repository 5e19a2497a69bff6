// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, createElement, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Collection } from '../../../contract/index.ts';
import AddToCollectionDialog, { type Added } from './add-to-collection-dialog.tsx';
import EntryCollectionsDialog from './entry-collections-dialog.tsx';

vi.mock('../../lib/key-store.ts', () => ({
  currentApiKey: () => 'tr_test',
  useApiKey: () => 'tr_test',
}));

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// jsdom has <dialog> without its methods: modal enough for these tests.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
});

const unmounts: (() => void)[] = [];
afterEach(() => {
  for (const unmount of unmounts.splice(0)) unmount();
  vi.unstubAllGlobals();
});

const collection = (id: string, name: string, count = 0): Collection => ({
  object: 'collection',
  id,
  name,
  count,
  cover_url: null,
  created_ms: 1,
  updated_ms: 1,
  share: null,
});
const CHAIRS = collection('col_AAAAAAAAAAAAAAAAAAAA', 'Chairs', 2);
const CLIENT = collection('col_BBBBBBBBBBBBBBBBBBBB', 'Client X', 0);

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

/**
 * Kiln's collection routes as a stub: the list, a new collection (409 for a name taken, in any
 * case), members added or removed; what was sent is recorded.
 */
function server(list: Collection[] = [CHAIRS, CLIENT]) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = init.body ? (JSON.parse(String(init.body)) as unknown) : undefined;
      sent.push({ method, path: url, body });
      if (method === 'GET' && url === '/api/collections')
        return Response.json({ object: 'list', data: list });
      if (method === 'POST' && url === '/api/collections') {
        const { name } = body as { name: string };
        if (list.some((c) => c.name.toLowerCase() === name.toLowerCase()))
          return Response.json(
            {
              error: {
                type: 'invalid_request_error',
                code: 'collection_name_taken',
                message: `name is taken: you already have a collection called “${name}”.`,
                param: 'name',
              },
            },
            { status: 409 },
          );
        const made = collection('col_CCCCCCCCCCCCCCCCCCCC', name);
        list.push(made);
        return Response.json(made, { status: 201 });
      }
      const members = /^\/api\/collections\/([^/]+)\/models$/.exec(url);
      if (method === 'POST' && members?.[1] === 'col_FFFFFFFFFFFFFFFFFFFF')
        return Response.json(
          {
            error: { type: 'api_error', code: 'internal_error', message: 'The database is busy.' },
          },
          { status: 500 },
        );
      if (method === 'POST' && members) {
        const c = list.find((x) => x.id === members[1]);
        return c ? Response.json(c) : new Response('', { status: 404 });
      }
      if (method === 'GET' && url.startsWith('/api/library'))
        return Response.json({ object: 'list', data: [], next_cursor: null });
      return new Response('', { status: 404 });
    }),
  );
  return sent;
}

const settle = () => act(async () => new Promise((r) => setTimeout(r, 0)));

async function mount(element: ReactElement) {
  const el = document.createElement('div');
  document.body.append(el);
  const root = createRoot(el);
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  act(() => root.render(createElement(QueryClientProvider, { client }, element)));
  unmounts.push(() => {
    act(() => root.unmount());
    el.remove();
  });
  await settle();
  await settle();
  return el;
}

/** Types into a React-controlled field (through the value's own setter, as a user would). */
function type(input: HTMLInputElement, value: string) {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

const byLabel = (el: HTMLElement, text: string) => {
  const label = [...el.querySelectorAll('label')].find((l) => l.textContent?.trim() === text);
  return document.getElementById(label?.htmlFor ?? '') as HTMLInputElement;
};
const button = (el: HTMLElement, name: string) =>
  [...el.querySelectorAll('button')].find(
    (b) => (b.getAttribute('aria-label') ?? b.textContent?.trim()) === name,
  )!;
const writes = (sent: Sent[]) => sent.filter((s) => s.method !== 'GET');

/** One model's Collections dialog, the model in `collections`. */
const openEntryDialog = (collections: string[]) =>
  mount(
    createElement(EntryCollectionsDialog, {
      target: { entry: { id: 'task_1', collections }, title: '“a red vase”' },
      onClose: () => undefined,
    }),
  );

describe('one model’s collections', () => {
  const open = openEntryDialog;

  it('ticks the collections it sits in; ticking adds it, unticking removes it, each said', async () => {
    const sent = server();
    const el = await open([CHAIRS.id]);
    expect(el.querySelector('h2')?.textContent).toBe('Collections of “a red vase”');
    const boxes = [...el.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')];
    expect(boxes.map((b) => [b.closest('label')?.textContent, b.checked])).toEqual([
      ['Chairs2 models', true],
      ['Client X0 models', false],
    ]);

    act(() => boxes[1]!.click());
    await settle();
    expect(writes(sent)).toEqual([
      { method: 'POST', path: `/api/collections/${CLIENT.id}/models`, body: { add: ['task_1'] } },
    ]);
    expect(boxes[1]!.checked).toBe(true);
    expect(el.querySelector('[role="status"]')?.textContent).toBe('Added to “Client X”.');

    act(() => boxes[0]!.click());
    await settle();
    expect(writes(sent)[1]).toEqual({
      method: 'POST',
      path: `/api/collections/${CHAIRS.id}/models`,
      body: { remove: ['task_1'] },
    });
    expect(boxes[0]!.checked).toBe(false);
    expect(el.querySelector('[role="status"]')?.textContent).toBe('Removed from “Chairs”.');
  });

  it('says the model left the collection the gallery shows, and stays open', async () => {
    server();
    history.pushState(null, '', `/gallery?collection=${CHAIRS.id}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
    try {
      const el = await open([CHAIRS.id]);
      const box = el.querySelector<HTMLInputElement>('input[type="checkbox"]')!;
      act(() => box.click());
      await settle();
      expect(el.querySelector('dialog')?.hasAttribute('open')).toBe(true);
      expect(el.querySelector('[role="status"]')?.textContent).toBe(
        'Removed from “Chairs”: it has left the collection shown, so its card leaves the gallery. Tick it again to put it back.',
      );
    } finally {
      history.pushState(null, '', '/');
      window.dispatchEvent(new PopStateEvent('popstate'));
    }
  });

  it('says why when the server refuses, and reads the list again', async () => {
    const list = [CHAIRS, collection('col_DDDDDDDDDDDDDDDDDDDD', 'Gone')];
    const sent = server(list);
    const el = await open([]);
    list.pop(); // deleted in another tab since the list was read
    const gone = [...el.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')][1]!;
    act(() => gone.click());
    await settle();
    expect(writes(sent)).toHaveLength(1);
    // The refusal's error class loads on the first failure (transport.ts).
    await vi.waitFor(async () => {
      await settle();
      expect(el.querySelector('[role="alert"]')?.textContent).toMatch(
        /^Could not add it to “Gone”: /,
      );
    });
    // The list is read again: the collection deleted elsewhere is no longer offered.
    expect([...el.querySelectorAll('.collection-checks__name')].map((n) => n.textContent)).toEqual([
      'Chairs',
    ]);
  });
});

describe('one model’s collections: failures and new ones', () => {
  const open = openEntryDialog;

  it('puts the box back as it was when the change fails', async () => {
    const sent = server([CHAIRS, collection('col_FFFFFFFFFFFFFFFFFFFF', 'Busy')]);
    const el = await open(['col_FFFFFFFFFFFFFFFFFFFF']);
    const busy = [...el.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')][1]!;
    expect(busy.checked).toBe(true);
    act(() => busy.click());
    expect(busy.checked).toBe(false); // at once
    await vi.waitFor(async () => {
      await settle();
      expect(el.querySelector('[role="alert"]')?.textContent).toBe(
        'Could not remove it from “Busy”: The database is busy.',
      );
    });
    expect(busy.checked).toBe(true);
    expect(busy.disabled).toBe(false);
    expect(writes(sent)).toHaveLength(1);
  });

  it('makes a new collection by name and puts the model in it; a bad name is said at the field', async () => {
    const sent = server();
    const el = await open([]);
    const field = byLabel(el, 'New collection');
    const create = button(el, 'Create and add');

    // Empty, and taken (whatever the case): said before anything is sent.
    act(() => create.click());
    expect(el.querySelector('[role="alert"]')?.textContent).toBe('Give the collection a name.');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toBe(el.querySelector('[role="alert"]')?.id);
    type(field, 'CHAIRS');
    act(() => create.click());
    expect(el.querySelector('[role="alert"]')?.textContent).toBe(
      'You already have a collection called “Chairs”.',
    );
    type(field, 'x'.repeat(121));
    act(() => create.click());
    expect(el.querySelector('[role="alert"]')?.textContent).toBe(
      'Name must be at most 120 characters (this one has 121).',
    );
    expect(writes(sent)).toEqual([]);

    type(field, '  Lamps ');
    act(() => create.click());
    await settle();
    await settle();
    expect(writes(sent)).toEqual([
      { method: 'POST', path: '/api/collections', body: { name: 'Lamps' } },
      {
        method: 'POST',
        path: '/api/collections/col_CCCCCCCCCCCCCCCCCCCC/models',
        body: { add: ['task_1'] },
      },
    ]);
    expect(field.value).toBe('');
    expect(el.querySelector('[role="status"]')?.textContent).toBe('Added to “Lamps”.');
  });

  it('shows the server’s 409 (a name taken elsewhere, say another tab) at the field', async () => {
    const list = [CHAIRS];
    const sent = server(list);
    const el = await open([]);
    // Another tab made "Lamps" since this list was read.
    list.push(collection('col_EEEEEEEEEEEEEEEEEEEE', 'Lamps'));
    const field = byLabel(el, 'New collection');
    type(field, 'lamps');
    act(() => button(el, 'Create and add').click());
    await settle();
    expect(writes(sent)).toEqual([
      { method: 'POST', path: '/api/collections', body: { name: 'lamps' } },
    ]);
    const alert = el.querySelector('[role="alert"]');
    expect(alert?.textContent).toBe('Name is taken: you already have a collection called “lamps”.');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.value).toBe('lamps');
  });
});

describe('"Add to collection…" for the selection', () => {
  const entries = [
    { id: 'task_1', collections: [CHAIRS.id] },
    { id: 'task_2', collections: [] },
  ];

  it('offers each collection, says how many are in it already, adds them all and closes', async () => {
    const sent = server();
    const added: Added[] = [];
    let closed = 0;
    const el = await mount(
      createElement(AddToCollectionDialog, {
        entries,
        onAdded: (a) => added.push(a),
        onClose: () => (closed += 1),
      }),
    );
    expect(el.querySelector('h2')?.textContent).toBe('Add 2 models to a collection');
    const chairs = button(el, 'Add to Chairs');
    expect(chairs.textContent).toBe('Chairs2 models · 1 in it already');
    act(() => chairs.click());
    await settle();
    expect(writes(sent)).toEqual([
      {
        method: 'POST',
        path: `/api/collections/${CHAIRS.id}/models`,
        body: { add: ['task_1', 'task_2'] },
      },
    ]);
    expect(added).toEqual([{ collection: CHAIRS, count: 2 }]);
    expect(closed).toBe(1);
  });

  it('makes a new one by name and adds them to it', async () => {
    const sent = server([]);
    const added: Added[] = [];
    const el = await mount(
      createElement(AddToCollectionDialog, {
        entries,
        onAdded: (a) => added.push(a),
        onClose: () => undefined,
      }),
    );
    expect(el.textContent).toContain('No collections yet.');
    type(byLabel(el, 'New collection'), 'Print next');
    act(() => button(el, 'Create and add').click());
    await settle();
    await settle();
    expect(writes(sent).map((s) => s.body)).toEqual([
      { name: 'Print next' },
      { add: ['task_1', 'task_2'] },
    ]);
    expect(added.map((a) => [a.collection.name, a.count])).toEqual([['Print next', 2]]);
  });
});
