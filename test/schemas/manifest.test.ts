import { describe, expect, test } from 'vitest';
import { ConfigValidationError, parseAdditiveManifest } from '@fw/schemas';

const FILE = 'additives/blog/manifest.json';

function messageOf(json: unknown): string {
  try {
    parseAdditiveManifest(json, FILE);
  } catch (err) {
    if (err instanceof ConfigValidationError) return err.message;
    throw err;
  }
  throw new Error('parseAdditiveManifest did not throw');
}

describe('parseAdditiveManifest', () => {
  test('minimal manifest: frontend defaults to none', () => {
    expect(parseAdditiveManifest({ name: 'blog', version: '0.1.0' }, FILE)).toEqual({
      name: 'blog',
      version: '0.1.0',
      frontend: { type: 'none' },
    });
  });

  test('full manifest', () => {
    const json = {
      name: 'blog',
      version: '1.2.3-beta.1+build.5',
      description: 'A blog',
      frontend: { type: 'vite', framework: 'svelte', typescript: true },
      package: '@acme/fw-blog',
    };
    expect(parseAdditiveManifest(json, FILE)).toEqual({
      ...json,
      frontend: { type: 'vite', framework: 'svelte', typescript: true, register_index: true },
    });
  });

  const bad: Array<[string, unknown, string]> = [
    ['missing version', { name: 'blog' }, `${FILE}: version: got nothing; expected a string (required)`],
    ['bad version', { name: 'blog', version: '1.0' }, `${FILE}: version: got "1.0"; expected a semantic version such as "1.0.0" or "0.2.0-beta.1"`],
    ['leading zero version', { name: 'blog', version: '01.0.0' }, `${FILE}: version: got "01.0.0"; expected a semantic version such as "1.0.0" or "0.2.0-beta.1"`],
    ['bad name', { name: 'a/b', version: '1.0.0' }, `${FILE}: name: got "a/b"; expected a single name without "/" or "\\", such as "blog" (it contains a path separator)`],
    ['reserved name', { name: 'static', version: '1.0.0' }, `${FILE}: name: got "static"; expected any name except fluid, api, ws, static, frontend, vite-dev, additives, node_modules (it is a path the kernel reserves)`],
    ['bad frontend', { name: 'blog', version: '1.0.0', frontend: { type: 'vite', framework: 'angular' } }, `${FILE}: frontend.framework: got "angular"; expected one of lit, none, preact, qwik, react, solid, svelte, vue`],
    ['bad package', { name: 'blog', version: '1.0.0', package: 'Fw Blog' }, `${FILE}: package: got "Fw Blog"; expected an npm package name such as "fw-blog" or "@acme/fw-blog"`],
    ['unknown key', { name: 'blog', version: '1.0.0', routes: [] }, `${FILE}: routes: unknown key; expected only the keys name, version, description, frontend, package in an additive manifest`],
    ['not an object', 'blog', `${FILE}: (top level): got "blog"; expected an object`],
  ];
  test.each(bad)('%s', (_name, json, message) => {
    expect(messageOf(json)).toBe(message);
  });
});
