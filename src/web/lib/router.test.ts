// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { address, navigate, parseRoute, setSearch } from './router.ts';

window.scrollTo = () => {};

describe('the router', () => {
  it('follows navigate, setSearch, and back and forward', async () => {
    const seen: string[] = [];
    const stop = address.subscribe(() =>
      seen.push(`${address.get().pathname}${address.get().search}`),
    );
    navigate('/gallery');
    expect(address.get()).toEqual({ pathname: '/gallery', search: '' });
    navigate('/gallery'); // already there: nothing
    setSearch('q=chair');
    expect(location.search).toBe('?q=chair');
    setSearch('?q=chair'); // the same: nothing
    setSearch('q=chairs', { replace: true });
    expect(history.length).toBe(3);
    const back = new Promise((resolve) =>
      window.addEventListener('popstate', resolve, { once: true }),
    );
    history.back();
    await back;
    // The search was replaced as it was typed: back is the gallery before it.
    expect(address.get()).toEqual({ pathname: '/gallery', search: '' });
    stop();
    expect(seen).toEqual(['/gallery', '/gallery?q=chair', '/gallery?q=chairs', '/gallery']);
  });

  it('reads the pages from a path', () => {
    expect(parseRoute('/')).toEqual({ page: 'studio' });
    expect(parseRoute('/tasks/a%20b')).toEqual({ page: 'task', id: 'a b' });
    expect(parseRoute('/tasks/t1/optimise')).toEqual({ page: 'optimise', id: 't1' });
    expect(parseRoute('/nowhere')).toEqual({ page: 'not-found' });
  });
});
