import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, Fluid } from '@fw/kernel';
import { loadConfig } from '@fw/kernel/core';
import { cleanupProjects, makeProject, TEST_SECRET } from './helpers.js';

afterAll(cleanupProjects);

describe('config layering', () => {
  it('applies defaults <- fw.json <- ini <- environment <- overrides', () => {
    const root = makeProject({
      config: { BASE_URL: 'https://json.example', PORT: 1111, HOST: '0.0.0.0', MY_FLAG: 'from-json' },
      ini: 'SECRET_KEY = s\nPORT = 2222\nBASE_URL = https://ini.example\n',
    });
    const env = { PORT: '3333', MY_FLAG: 'from-env', UNRELATED_VAR: 'x' };
    const c = loadConfig({ root, env });
    expect(c.PORT).toBe(3333);
    expect(c.BASE_URL).toBe('https://ini.example');
    expect(c.HOST).toBe('0.0.0.0');
    expect(c.MY_FLAG).toBe('from-env');
    expect(c.UNRELATED_VAR).toBeUndefined();
    expect(c.FW_PROCESSING).toBe(true); // schema default
    const o = loadConfig({ root, env, overrides: { PORT: 4444 } });
    expect(o.PORT).toBe(4444);
  });

  it('reads known keys from the environment even when no file mentions them', () => {
    const root = makeProject();
    expect(loadConfig({ root, env: { DEBUG: 'true' } }).DEBUG).toBe(true);
    expect(loadConfig({ root, env: {} }).DEBUG).toBe(false);
  });

  it('chooses the ini by FW_APP, then options.app, defaulting to the project name', () => {
    const root = makeProject({ files: { 'app_configs/other.ini': 'SECRET_KEY = other\nAPP_LABEL = other\n' } });
    expect(loadConfig({ root, env: {} }).SECRET_KEY).toBe(TEST_SECRET);
    expect(loadConfig({ root, env: { FW_APP: 'other' } }).SECRET_KEY).toBe('other');
    expect(loadConfig({ root, env: {}, app: 'other' }).APP_LABEL).toBe('other');
    expect(() => loadConfig({ root, env: {}, app: '../x' })).toThrow(/Invalid app name/);
  });
});

describe('X_FILE indirection', () => {
  it('reads the value from a file, trailing newline trimmed, in any layer', () => {
    const root = makeProject({
      ini: 'SECRET_KEY_FILE = secrets/key.txt\n',
      files: { 'secrets/key.txt': 'from-file\n', 'secrets/pw': 'p@ss\r\n' },
    });
    const c = loadConfig({ root, env: { MAIL_PASSWORD_FILE: join(root, 'secrets/pw') } });
    expect(c.SECRET_KEY).toBe('from-file');
    expect(c.MAIL_PASSWORD).toBe('p@ss');
    expect(c.SECRET_KEY_FILE).toBeUndefined();
  });

  it('names the key and the path when the file is missing', () => {
    const root = makeProject({ ini: 'SECRET_KEY_FILE = nope/secret\n' });
    expect(() => loadConfig({ root, env: {} })).toThrow(ConfigError);
    expect(() => loadConfig({ root, env: {} })).toThrow(/app_configs\/demo\.ini:1: SECRET_KEY_FILE: cannot read .*nope\/secret/);
  });

  it('refuses X and X_FILE in the same layer', () => {
    const root = makeProject({ ini: 'SECRET_KEY = a\nSECRET_KEY_FILE = k\n', files: { k: 'b' } });
    expect(() => loadConfig({ root, env: {} })).toThrow(/both SECRET_KEY and SECRET_KEY_FILE are set/);
  });
});

describe('ini decoding', () => {
  it('reads UTF-8, and falls back to latin1 for bytes that are not UTF-8', () => {
    const utf8 = makeProject({ ini: Buffer.from('SECRET_KEY = s\nGREETING = café ünï\n', 'utf8') });
    expect(loadConfig({ root: utf8, env: {} }).GREETING).toBe('café ünï');
    const latin1 = makeProject({ ini: Buffer.from('SECRET_KEY = s\nGREETING = café ünï\n', 'latin1') });
    expect(loadConfig({ root: latin1, env: {} }).GREETING).toBe('café ünï');
  });
});

describe('config errors', () => {
  it('names the key path and the file for a bad fw.json value', () => {
    const root = makeProject({ config: { APP_FRONTEND: { type: 'angular' } } });
    let err: unknown;
    try {
      loadConfig({ root, env: {} });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect(String((err as Error).message)).toMatch(/fw\.json:\d+:\d+: config\.APP_FRONTEND\.type/);
  });

  it('names the ini file for a bad ini value', () => {
    const root = makeProject({ ini: 'SECRET_KEY = s\nPORT = eighty\n' });
    expect(() => loadConfig({ root, env: {} })).toThrow(/app_configs\/demo\.ini:2: PORT: got "eighty"/);
  });

  it('names the environment for a bad environment value', () => {
    const root = makeProject();
    expect(() => loadConfig({ root, env: { FW_PROCESSING: 'maybe' } })).toThrow(/environment: FW_PROCESSING/);
  });

  it('says how to create SECRET_KEY when it is missing, unless overrides give it', () => {
    const root = makeProject({ ini: null });
    expect(() => new Fluid({ root, env: {} })).toThrow(/SECRET_KEY is not set for app 'demo'.*npx fw create app demo/);
    const fluid = new Fluid({ root, env: {}, config: { SECRET_KEY: 'given' } });
    expect(fluid.config.SECRET_KEY).toBe('given');
  });

  it('reports a missing or broken fw.json clearly', () => {
    const root = makeProject();
    writeFileSync(join(root, 'fw.json'), '{ nope');
    expect(() => loadConfig({ root, env: {} })).toThrow(/fw\.json:1:3: not valid JSON: got \"nope\"; expected a property name in double quotes/);
    expect(() => loadConfig({ root: join(root, 'app_configs'), env: {} })).toThrow(/Cannot read fw\.json in .*Is this an fw project root/);
  });
});

describe('the project root of a compiled app', () => {
  it('new Fluid() from dist/fluid/app.js finds fw.json above dist/', () => {
    const root = makeProject({ name: 'shop', files: { 'dist/fluid/app.js': '// compiled', 'fluid/templates/index.html': '<p>{{x}}</p>' } });
    // what `new URL('..', import.meta.url)` gives in dist/fluid/app.js
    const fluid = new Fluid({ root: new URL('..', pathToFileURL(join(root, 'dist/fluid/app.js'))), env: {} });
    expect(fluid.root).toBe(root);
    expect(fluid.name).toBe('shop');
    expect(String(fluid.render('index.html', { x: 'found' }))).toBe('<p>found</p>');
    expect(new Fluid({ root: join(root, 'dist', 'fluid'), env: {} }).root).toBe(root);
  });

  it('a root with no fw.json in it or above it is a ConfigError naming the path', () => {
    const lost = mkdtempSync(join(tmpdir(), 'fw-no-project-'));
    try {
      mkdirSync(join(lost, 'dist'));
      expect(() => new Fluid({ root: join(lost, 'dist'), env: {} })).toThrow(ConfigError);
      expect(() => new Fluid({ root: join(lost, 'dist'), env: {} })).toThrow(`No fw.json in ${join(lost, 'dist')} or any folder above it`);
    } finally {
      rmSync(lost, { recursive: true, force: true });
    }
  });
});
