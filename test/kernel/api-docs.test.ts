/**
 * "Every public API is typed and documented where it is defined": each declaration a user of
 * `@fw/kernel` reaches from an entry point of its package.json `exports` (and each public member of
 * the classes, interfaces and object types among them) has a doc comment in the `.d.ts` the
 * package ships, so the editor's hover says what it is. See test/kernel/api-docs.ts for what counts.
 */
import { describe, expect, it } from 'vitest';
import { kernelApi, type ApiEntry } from './api-docs.js';


const label = (e: ApiEntry) => `${e.file} ${e.name}`;

describe('the documentation of @fw/kernel in a user\'s editor', () => {
  const api = kernelApi();

  it('walks the whole public API', () => {
    // A sanity floor: the walk reaches the classes, functions and members it is meant to.
    const names = new Set(api.map((e) => e.name));
    for (const name of ['Fluid', 'FluidCore.use', 'limit', 'RateLimiter.middleware', 'Guard.check', 'HttpError.status', 'KeyRing', 'Cache.get']) {
      expect(names, name).toContain(name);
    }
    expect(api.length).toBeGreaterThan(1000);
  });

  it('has a doc comment on every exported declaration and public member', () => {
    const undocumented = api.filter((e) => !e.documented).map(label);
    expect(undocumented).toEqual([]);
  });

  it('has no stray tags: a bare `@fw/kernel/docs/...` or `@koa/router` in a comment starts a tag and cuts the description', () => {
    const TAGS = new Set(['param', 'returns', 'throws', 'example', 'see', 'link', 'deprecated', 'default', 'remarks', 'typeParam', 'template', 'inheritDoc']);
    expect(api.flatMap((e) => e.tags.filter((t) => !TAGS.has(t)).map((t) => `${label(e)} @${t}`))).toEqual([]);
  });
});
