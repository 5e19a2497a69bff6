// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { libraryEntry } from '../../testing/library-entry.ts';
import { RenameForm } from './rename-form.tsx';

vi.mock('../lib/key-store.ts', () => ({
  currentApiKey: () => 'tr_test',
  useApiKey: () => 'tr_test',
}));

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const unmounts: (() => void)[] = [];
afterEach(() => {
  for (const unmount of unmounts.splice(0)) unmount();
  vi.unstubAllGlobals();
});

const ENTRY = libraryEntry({
  id: 'task_1',
  model: 'beta-text',
  prompt: 'a red vase',
  created: 1_800_000_000,
  credits_consumed: 10,
  credits_remaining: 990,
  archived: false,
});

/** The form for an entry named `name`, and what `onClose` was told. */
function render(name: string | null) {
  const el = document.createElement('div');
  document.body.append(el);
  const root = createRoot(el);
  const closed: boolean[] = [];
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  act(() =>
    root.render(
      createElement(
        QueryClientProvider,
        { client },
        createElement(RenameForm, {
          entry: { id: 'task_1', name },
          onClose: (s) => closed.push(s),
        }),
      ),
    ),
  );
  unmounts.push(() => {
    act(() => root.unmount());
    el.remove();
  });
  const input = el.querySelector('input')!;
  const type = (value: string) =>
    act(() => {
      // React's onChange listens for the native input event, through the value's own setter.
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setter.call(input, value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
  const key = (k: string) =>
    act(() => {
      input.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
    });
  const submit = () =>
    act(() => {
      input.form!.requestSubmit();
    });
  return { el, input, closed, type, key, submit };
}

/** Stubs fetch with `answer`, recording the bodies sent. */
function answering(answer: (body: unknown) => Response) {
  const sent: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit = {}) => {
      const body = JSON.parse(String(init.body)) as unknown;
      sent.push(body);
      return answer(body);
    }),
  );
  return sent;
}

const settle = () => act(async () => new Promise((r) => setTimeout(r, 0)));

describe('the rename field', () => {
  it('starts with the name, focused, labelled Name', () => {
    const { el, input } = render('Blue teapot');
    expect(input.value).toBe('Blue teapot');
    expect(document.activeElement).toBe(input);
    expect(el.querySelector(`label[for="${input.id}"]`)?.textContent).toBe('Name');
  });

  it('says at the field what is wrong, before sending anything', () => {
    const sent = answering(() => Response.json(ENTRY));
    const { el, input, type, submit, closed } = render(null);
    type('x'.repeat(121));
    submit();
    const alert = el.querySelector('[role="alert"]');
    expect(alert?.textContent).toBe('Name must be at most 120 characters (this one has 121).');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe(alert?.id);
    type('evil\u202Egnp');
    expect(el.querySelector('[role="alert"]')).toBeNull(); // typing clears it
    submit();
    expect(el.querySelector('[role="alert"]')?.textContent).toMatch(
      /^Name must not hold direction overrides/,
    );
    expect(sent).toEqual([]);
    expect(closed).toEqual([]);
  });

  it('saves the trimmed name (or null for an empty one) and closes', async () => {
    const sent = answering((body) => Response.json({ ...ENTRY, ...(body as object) }));
    const first = render(null);
    first.type('  Blue teapot ');
    first.submit();
    await settle();
    expect(sent).toEqual([{ name: 'Blue teapot' }]);
    expect(first.closed).toEqual([true]);

    const second = render('Blue teapot');
    second.type('   ');
    second.submit();
    await settle();
    expect(sent[1]).toEqual({ name: null });
    expect(second.closed).toEqual([true]);
  });

  it('closes without sending when nothing changed, and Escape cancels', () => {
    const sent = answering(() => Response.json(ENTRY));
    const same = render('Blue teapot');
    same.type(' Blue teapot');
    same.submit();
    expect(same.closed).toEqual([false]);
    const cancelled = render('Blue teapot');
    cancelled.type('Something else');
    cancelled.key('Escape');
    expect(cancelled.closed).toEqual([false]);
    expect(sent).toEqual([]);
  });

  it('shows the server’s refusal at the field and keeps it open', async () => {
    answering(() =>
      Response.json(
        {
          error: {
            code: 'invalid_value',
            message: 'name holds a character Kiln cannot store.',
            param: 'name',
            type: 'invalid_request_error',
          },
        },
        { status: 400 },
      ),
    );
    const { el, type, submit, closed } = render(null);
    type('Teapot');
    submit();
    await settle();
    expect(el.querySelector('[role="alert"]')?.textContent).toMatch(/^Name holds a character/);
    expect(closed).toEqual([]);
  });
});
