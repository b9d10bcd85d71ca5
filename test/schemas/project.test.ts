import { describe, expect, test } from 'vitest';
import { ConfigValidationError, parseProjectConfig, projectConfigSchema } from '@fw/schemas';

function messageOf(json: unknown, file = 'fw.json'): string {
  try {
    parseProjectConfig(json, file);
  } catch (err) {
    if (err instanceof ConfigValidationError) return err.message;
    throw err;
  }
  throw new Error('parseProjectConfig did not throw');
}

describe('parseProjectConfig', () => {
  test('minimal file gets defaults', () => {
    expect(parseProjectConfig({ name: 'my-app' }, 'fw.json')).toEqual({ name: 'my-app', additives: [], config: {} });
  });

  test('a full file is kept; config values are coerced, aliases mapped, no defaults added', () => {
    const json = {
      $schema: './node_modules/@fw/schemas/json/fw.schema.json',
      name: 'my-app',
      additives: ['blog', 'shop-v2'],
      config: { APP_FRONTEND: { type: 'htmx', alpine: true }, DEBUG: 'yes', EXT_BABEL: true, MY_SETTING: 3 },
    };
    expect(parseProjectConfig(json, 'fw.json')).toEqual({
      $schema: './node_modules/@fw/schemas/json/fw.schema.json',
      name: 'my-app',
      additives: ['blog', 'shop-v2'],
      config: { APP_FRONTEND: { type: 'htmx', alpine: true }, DEBUG: true, EXT_I18N: true, MY_SETTING: '3' },
    });
  });

  test('the input is not mutated', () => {
    const json = { name: 'a', config: { DEBUG: 'yes' } };
    parseProjectConfig(json, 'fw.json');
    expect(json).toEqual({ name: 'a', config: { DEBUG: 'yes' } });
  });

  const bad: Array<[string, unknown, string]> = [
    ['not an object', [], 'fw.json: (top level): got []; expected an object'],
    ['missing name', {}, 'fw.json: name: got nothing; expected a string (required)'],
    ['bad name', { name: '../x' }, 'fw.json: name: got "../x"; expected a single name without "/" or "\\", such as "my-app" (it contains a path separator)'],
    ['unknown key', { name: 'a', addons: [] }, 'fw.json: addons: unknown key; expected only the keys $schema, name, additives, config in fw.json'],
    ['additives not a list', { name: 'a', additives: 'blog' }, 'fw.json: additives: got "blog"; expected a list'],
    ['bad additive', { name: 'a', additives: ['blog', 'api'] }, 'fw.json: additives[1]: got "api"; expected any name except fluid, api, ws, static, frontend, vite-dev, additives, node_modules (it is a path the kernel reserves)'],
    ['duplicate additive', { name: 'a', additives: ['blog', 'blog'] }, 'fw.json: additives: got ["blog","blog"]; expected a list of distinct additive names'],
    ['config not an object', { name: 'a', config: 'DEBUG=1' }, 'fw.json: config: got "DEBUG=1"; expected an object'],
    ['frontend in config', { name: 'a', config: { APP_FRONTEND: { type: 'vite' } } }, 'fw.json: config.APP_FRONTEND.framework: got nothing; expected one of lit, none, preact, qwik, react, solid, svelte, vue (required)'],
    ['lowercase config key', { name: 'a', config: { base_url: 'x' } }, 'fw.json: config.base_url: unknown key; did you mean BASE_URL? (config keys are UPPERCASE: A-Z, 0-9, _)'],
    ['secret in config', { name: 'a', config: { SECRET_KEY: 7 } }, 'fw.json: config.SECRET_KEY: got <redacted>; expected a string'],
    ['alias with a bad value', { name: 'a', config: { SQLALCHEMY_BINDS: { main: 'nope' } } }, 'fw.json: config.DATABASE_BINDS.main: got "nope"; expected a database URL such as "file:./var/main.db" or "postgres://host/db"'],
  ];
  test.each(bad)('%s', (_name, json, message) => {
    expect(messageOf(json)).toBe(message);
  });

  test('the file name given is the one printed', () => {
    expect(messageOf({ name: 'A' }, '/tmp/p/fw.json')).toBe(
      '/tmp/p/fw.json: name: got "A"; expected a lowercase name (npm forbids uppercase), such as "a" (it contains uppercase letters)',
    );
  });

  test('projectConfigSchema can be used directly', () => {
    expect(projectConfigSchema.safeParse({ name: 'x', config: { DEBUG: true } }).success).toBe(true);
    expect(projectConfigSchema.safeParse({ name: 'x', config: { DEBUG: 'nope' } }).success).toBe(false);
  });
});
