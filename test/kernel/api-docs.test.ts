/**
 * "Every public API is typed and documented where it is defined": each declaration a user of
 * `@fw/kernel` reaches from an entry point of its package.json `exports` (and each public member of
 * the classes, interfaces and object types among them) has a doc comment in the `.d.ts` the
 * package ships, so the editor's hover says what it is. See test/kernel/api-docs.ts for what counts.
 */
import { describe, expect, it } from 'vitest';
import { kernelApi, type ApiEntry } from './api-docs.js';

/**
 * The i18n module's members without a doc comment yet, by `file name`. Its owner documents them
 * and takes them off this list (the test fails while a listed member is documented, so the list
 * only shrinks). Nothing outside i18n may be listed here.
 */
const I18N_UNDOCUMENTED: readonly string[] = [
  'dist/i18n/i18n.d.ts TranslationDomain.name',
  'dist/i18n/i18n.d.ts TranslationDomain.dir',
  'dist/i18n/plural.d.ts PluralRule.nplurals',
  'dist/i18n/plural.d.ts PluralRule.select',
  'dist/i18n/store.d.ts RawQueryClient.$queryRaw',
];

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
    expect(undocumented.filter((l) => !I18N_UNDOCUMENTED.includes(l))).toEqual([]);
  });

  it('has no stray tags: a bare `@fw/kernel/docs/...` or `@koa/router` in a comment starts a tag and cuts the description', () => {
    const TAGS = new Set(['param', 'returns', 'throws', 'example', 'see', 'link', 'deprecated', 'default', 'remarks', 'typeParam', 'template', 'inheritDoc']);
    expect(api.flatMap((e) => e.tags.filter((t) => !TAGS.has(t)).map((t) => `${label(e)} @${t}`))).toEqual([]);
  });

  it('lists only i18n members that are still undocumented in I18N_UNDOCUMENTED', () => {
    expect(I18N_UNDOCUMENTED.filter((l) => !l.startsWith('dist/i18n/'))).toEqual([]);
    const undocumented = new Set(api.filter((e) => !e.documented).map(label));
    expect(I18N_UNDOCUMENTED.filter((l) => !undocumented.has(l))).toEqual([]);
  });
});
