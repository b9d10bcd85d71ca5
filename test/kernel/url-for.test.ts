import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Fluid } from '@fw/kernel';
import { cleanupProjects, makeFluid, start, type ProjectSpec } from './helpers.js';

const open: Fluid[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((f) => f.close()));
});
afterAll(cleanupProjects);

function app(spec: ProjectSpec = {}): Fluid {
  const f = makeFluid(spec);
  open.push(f);
  f.app.get('home', '/', (ctx) => ({ url: ctx.urlFor('post', { slug: 'hi there' }, { query: { tab: 'a&b' } }) }));
  f.app.get('post', '/posts/:slug', () => 'post');
  f.api.get('item', '/items/:id/parts/:part', () => 'item');
  return f;
}

describe('urlFor', () => {
  it('gives the same URL in a request and off-request (startup hook)', async () => {
    const f = app();
    let offRequest = '';
    f.onStartup((fl) => {
      offRequest = fl.urlFor('post', { slug: 'hi there' }, { query: { tab: 'a&b' } });
    });
    const url = await start(f);
    const inRequest = ((await (await fetch(url)).json()) as { url: string }).url;
    expect(inRequest).toBe('/posts/hi%20there?tab=a%26b');
    expect(offRequest).toBe(inRequest);
  });

  it('URL-encodes params and query values; unknown params go to the query', () => {
    const f = app();
    expect(f.urlFor('item', { id: 'a/b?c', part: 'ü#' })).toBe('/api/items/a%2Fb%3Fc/parts/%C3%BC%23');
    expect(f.urlFor('post', { slug: 'x', ref: 'm e' }, { query: { list: [1, 2], skip: undefined } })).toBe(
      '/posts/x?ref=m%20e&list=1&list=2',
    );
  });

  it('prefixes BASE_URL with external: true, and says when BASE_URL is unset', () => {
    const withBase = app({ config: { BASE_URL: 'https://example.com/' } });
    expect(withBase.urlFor('post', { slug: 's' }, { external: true })).toBe('https://example.com/posts/s');
    const without = app();
    expect(() => without.urlFor('post', { slug: 's' }, { external: true })).toThrow(/needs BASE_URL to be set/);
  });

  it('names the unknown route and the close matches; names missing params', () => {
    const f = app();
    expect(() => f.urlFor('posts')).toThrow(/no route named 'posts'; did you mean 'post'/);
    expect(() => f.urlFor('zzzzzzzz')).toThrow(/no route named 'zzzzzzzz'$/);
    expect(() => f.urlFor('item', { id: 1 })).toThrow(/missing parameter part for \/api\/items\/:id\/parts\/:part/);
  });
});
