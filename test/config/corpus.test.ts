/**
 * The config corpus (issue 16 "Config errors", bug 8): malformed and valid `fw.json`, app ini
 * files, `.env` files, environments and Additive manifests. Each malformed one is rejected with
 * a message naming its file (and line), the key path and, for a misspelt key, the key meant; each
 * valid one is accepted. The kernel's loader and the generators read the same files with the same
 * rules (one implementation, in @fw/schemas), so both are asked. No message carries a stack trace;
 * nothing malformed is accepted silently.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { Additive, ConfigError, loadConfigDetails } from '@fw/kernel/core';
import { validateConfigText } from '../../generators/src/project/config.js';
import { validateManifest } from '../../generators/src/project/regenerate.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** What a case expects: `valid`, or fragments the one error message must contain. */
type Expect = 'valid' | string[];

interface Case {
  name: string;
  /** Files of the project (`fw.json` defaults to a valid one; the ini to one with a SECRET_KEY). */
  files?: Record<string, string>;
  /** The process environment. */
  env?: Record<string, string>;
  expect: Expect;
}

const FW = (config: string, extra = ''): string => `{\n  "name": "app",${extra}\n  "config": ${config}\n}\n`;
const MANIFEST = (body: string): Record<string, string> => ({ 'additives/blog/manifest.json': body });
const INI = (body: string): Record<string, string> => ({ 'app_configs/app.ini': `SECRET_KEY = s\n${body}` });

const FW_JSON: Case[] = [
  { name: 'minimal fw.json', files: { 'fw.json': '{"name":"app"}' }, expect: 'valid' },
  { name: 'a byte-order mark', files: { 'fw.json': '\uFEFF{"name":"app","config":{"DEBUG":true}}' }, expect: 'valid' },
  { name: 'BOM and CRLF line ends', files: { 'fw.json': '\uFEFF{\r\n  "name": "app",\r\n  "additives": []\r\n}\r\n' }, expect: 'valid' },
  { name: 'an app-defined key', files: { 'fw.json': FW('{ "GREETING": "hi", "MY_FEATURE_FLAG": "on" }') }, expect: 'valid' },
  { name: 'a trailing comma', files: { 'fw.json': '{"name":"app",}' }, expect: ['fw.json:1:15: not valid JSON', 'no "," after the last entry'] },
  { name: 'single quotes', files: { 'fw.json': "{\n  'name': 'app'\n}" }, expect: ['fw.json:2:3: not valid JSON', 'double quotes'] },
  { name: 'a comment', files: { 'fw.json': '{\n  // the app\n  "name": "app"\n}' }, expect: ['fw.json:2:3: not valid JSON', 'JSON has no comments'] },
  { name: 'a missing comma', files: { 'fw.json': '{\n  "name": "app"\n  "additives": []\n}' }, expect: ['fw.json:3:3: not valid JSON', 'a "," between two entries'] },
  { name: 'an unterminated string', files: { 'fw.json': '{\n  "name": "app\n}' }, expect: ['fw.json:2:', 'not valid JSON'] },
  { name: 'an empty file', files: { 'fw.json': '' }, expect: ['fw.json:1:1: not valid JSON: got the end of the file; expected a value'] },
  { name: 'a leading-zero number', files: { 'fw.json': FW('{ "PORT": 08000 }') }, expect: ['fw.json:3:', 'not valid JSON'] },
  { name: 'NaN', files: { 'fw.json': FW('{ "PORT": NaN }') }, expect: ['fw.json:3:', 'not valid JSON'] },
  { name: 'a repeated top-level key', files: { 'fw.json': '{\n  "name": "app",\n  "name": "other"\n}' }, expect: ['fw.json:3:3: name: got a second "name"; expected each key once (first at line 2, column 3'] },
  { name: 'a repeated config key', files: { 'fw.json': FW('{\n    "DEBUG": true,\n    "DEBUG": false\n  }') }, expect: ['fw.json:5:5: config.DEBUG: got a second "DEBUG"', 'first at line 4, column 5'] },
  { name: 'CACHE_TIPE', files: { 'fw.json': FW('{\n    "CACHE_TIPE": "redis"\n  }') }, expect: ['fw.json:4:5: config.CACHE_TIPE: unknown key; did you mean CACHE_TYPE?'] },
  { name: 'APP_FRONTED', files: { 'fw.json': FW('{\n    "APP_FRONTED": { "type": "htmx" }\n  }') }, expect: ['fw.json:4:5: config.APP_FRONTED: unknown key; did you mean APP_FRONTEND?'] },
  { name: 'EXT_I18M', files: { 'fw.json': FW('{ "EXT_I18M": true }') }, expect: ['fw.json:3:15: config.EXT_I18M: unknown key; did you mean EXT_I18N?'] },
  { name: 'MAIL_PASWORD', files: { 'fw.json': FW('{ "MAIL_PASWORD": "x" }') }, expect: ['config.MAIL_PASWORD: unknown key; did you mean MAIL_PASSWORD?'] },
  { name: 'SECRT_KEY (a typo without a reserved prefix)', files: { 'fw.json': FW('{ "SECRT_KEY": "x" }') }, expect: ['config.SECRT_KEY: unknown key; did you mean SECRET_KEY?'] },
  { name: 'FW_APP in fw.json', files: { 'fw.json': FW('{ "FW_APP": "x" }') }, expect: ['config.FW_APP: unknown key; FW_APP is an environment variable'] },
  { name: 'a lowercase key', files: { 'fw.json': FW('{ "debug": true }') }, expect: ['config.debug: unknown key; did you mean DEBUG?'] },
  { name: 'a misspelt top-level key', files: { 'fw.json': '{\n  "name": "app",\n  "aditives": []\n}' }, expect: ['fw.json:3:3: aditives: unknown key; did you mean additives?'] },
  { name: 'a name that is a number', files: { 'fw.json': '{\n  "name": 42\n}' }, expect: ['fw.json:2:3: name: got 42'] },
  { name: 'additives not a list', files: { 'fw.json': '{ "name": "app", "additives": "blog" }' }, expect: ['additives: got "blog"; expected a list'] },
  { name: 'a top-level list', files: { 'fw.json': '[]' }, expect: ['fw.json', '(top level): got []; expected an object'] },
  { name: 'an unknown framework', files: { 'fw.json': FW('{ "APP_FRONTEND": { "type": "vite", "framework": "angular" } }') }, expect: ['config.APP_FRONTEND.framework: got "angular"; expected one of lit, none'] },
  { name: 'a misspelt frontend key', files: { 'fw.json': FW('{ "APP_FRONTEND": { "type": "htmx", "alpin": true } }') }, expect: ['config.APP_FRONTEND.alpin: unknown key; did you mean alpine?'] },
  { name: 'typescript: "yes"', files: { 'fw.json': FW('{ "APP_FRONTEND": { "type": "vite", "framework": "react", "typescript": "yes" } }') }, expect: ['config.APP_FRONTEND.typescript: got "yes"; expected a boolean'] },
  { name: 'a port that is a word', files: { 'fw.json': FW('{ "PORT": "eighty" }') }, expect: ['config.PORT: got "eighty"'] },
  { name: 'a bad bind name', files: { 'fw.json': FW('{ "DATABASE_BINDS": { "my db": "file:./x.db" } }') }, expect: ['config.DATABASE_BINDS', 'the key "my db"'] },
];

const INI_FILES: Case[] = [
  { name: 'a valid ini', files: INI('DEBUG = true\nGREETING = hi\n'), expect: 'valid' },
  { name: 'an ini with a BOM', files: { 'app_configs/app.ini': '\uFEFFSECRET_KEY = s\nDEBUG = yes\n' }, expect: 'valid' },
  { name: 'CACHE_TIPE in the ini', files: INI('CACHE_TIPE = redis\n'), expect: ['app_configs/app.ini:2: CACHE_TIPE: unknown key; did you mean CACHE_TYPE?'] },
  { name: 'RATELIMIT_DEFALT', files: INI('RATELIMIT_DEFALT = 10/minute\n'), expect: ['app_configs/app.ini:2: RATELIMIT_DEFALT: unknown key; did you mean RATELIMIT_DEFAULT?'] },
  { name: 'AUTH_ROLSE', files: INI('AUTH_ROLSE = admin\n'), expect: ['app_configs/app.ini:2: AUTH_ROLSE: unknown key; did you mean AUTH_ROLES?'] },
  { name: 'a lowercase ini key', files: INI('port = 80\n'), expect: ['app_configs/app.ini:2: port: unknown key; did you mean PORT?'] },
  {
    name: 'a section',
    files: INI('[mail]\nserver = x\n'),
    expect: ["app_configs/app.ini:2: [mail]: got a [section] header; expected none (fw's ini files have no sections): write its keys (server) at the top level"],
  },
  // named like a word inside a key of fw's (subdoMAINs): no did-you-mean of SECURITY_HSTS_INCLUDE_SUBDOMAINS
  { name: 'a section named main', files: INI('[main]\nDEBUG = true\n'), expect: ['app_configs/app.ini:2: [main]: got a [section] header', 'write its keys (DEBUG) at the top level'] },
  { name: 'DEBUG = maybe', files: INI('DEBUG = maybe\n'), expect: ['app_configs/app.ini:2: DEBUG: got "maybe"; expected a boolean'] },
  { name: 'a key without "= value"', files: INI('; comment\n\nPORT\n'), expect: ['app_configs/app.ini:4: PORT: got a line without "="; expected KEY = value'] },
  { name: 'a section header missing its "]"', files: INI('[mail\n'), expect: ['app_configs/app.ini:2: [mail: got a line without "="'] },
  {
    name: 'a list of limits joined by ";" (the ini format would cut it there: RATELIMIT_DEFAULT would be "10/minute")',
    files: INI('RATELIMIT_DEFAULT = 10/minute;100/hour\n'),
    expect: ['app_configs/app.ini:2: RATELIMIT_DEFAULT: the value has ";" right after a character', 'quote the value (RATELIMIT_DEFAULT = "...")'],
  },
  { name: 'a "#" inside a password (never shown)', files: INI('MAIL_PASSWORD = ab#cd\n'), expect: ['app_configs/app.ini:2: MAIL_PASSWORD: the value has "#"'] },
  { name: 'a quoted list of limits, a comma list, a comment after a space', files: INI('RATELIMIT_DEFAULT = "10/minute;100/hour"\nMAIL_PASSWORD = ab\\#cd\nPORT = 8000 ; dev port\n'), expect: 'valid' },
  { name: 'a repeated ini key', files: INI('PORT = 80\nPORT = 81\n'), expect: ['app_configs/app.ini:3: PORT: got a second PORT; expected each key once (first at line 2)'] },
  { name: 'a missing X_FILE', files: INI('MAIL_PASSWORD_FILE = nope/secret\n'), expect: ['app_configs/app.ini:2: MAIL_PASSWORD_FILE: cannot read'] },
  { name: 'both mail TLS flags (a rule between keys, checked on the merged config)', files: INI('MAIL_USE_TLS = true\n'), expect: ['app_configs/app.ini:2: MAIL_USE_TLS: got true; expected false while MAIL_USE_STARTTLS is true'] },
  { name: 'a default locale that is not supported', files: INI('I18N_DEFAULT_LOCALE = de\n'), expect: ['app_configs/app.ini:2: I18N_DEFAULT_LOCALE: got "de"; expected one of I18N_SUPPORTED_LOCALES: en'] },
];

const DOTENV: Case[] = [
  { name: 'a valid .env', files: { '.env': '# mine\nPORT=9000\nGREETING="hello there"\n' }, expect: 'valid' },
  { name: "Prisma's DATABASE_URL in .env", files: { '.env': 'DATABASE_URL="file:./dev.db"\n' }, expect: 'valid' },
  { name: 'a PostgreSQL DATABASE_URL in .env for a SQLite bind', files: { '.env': 'PORT=9000\nDATABASE_URL=postgresql://u@127.0.0.1:5432/app\n' }, expect: ['.env:2: DATABASE_URL: a postgresql URL, but bind "main" is sqlite in DATABASE_BINDS'] },
  { name: 'REDIS_URL without a scheme in .env', files: { '.env': 'REDIS_URL=localhost:6379\n' }, expect: ['.env:1: REDIS_URL: got "localhost:6379"; expected a redis:// or rediss:// URL'] },
  { name: 'DATABASE_BIND in .env', files: { '.env': 'DATABASE_BIND=x\n' }, expect: ['.env:1: DATABASE_BIND: unknown key; did you mean DATABASE_BINDS?'] },
  { name: 'FW_APP in .env picks the ini', files: { '.env': 'FW_APP=staging\n', 'app_configs/staging.ini': 'SECRET_KEY = t\n' }, expect: 'valid' },
  { name: 'CACHE_TIPE in .env', files: { '.env': 'PORT=9000\nCACHE_TIPE=redis\n' }, expect: ['.env:2: CACHE_TIPE: unknown key; did you mean CACHE_TYPE?'] },
  { name: 'a repeated .env key', files: { '.env': 'PORT=1\nexport PORT=2\n' }, expect: ['.env:2: PORT: got a second PORT; expected each key once (first at line 1)'] },
  { name: 'a bad value in .env', files: { '.env': 'MAIL_PORT=smtp\n' }, expect: ['.env:1: MAIL_PORT: got "smtp"'] },
  // parseEnv drops such a line without a word: the setting would be lost
  { name: 'a .env line without "="', files: { '.env': '# mine\nPORT 9000\n' }, expect: ['.env:2: PORT 9000: got a line without "="; expected KEY=value, a # comment or a blank line'] },
  { name: 'a .env line with ":"', files: { '.env': 'PORT: 9000\n' }, expect: ['.env:1: PORT: 9000: got a line without "="'] },
  // the lines of a quoted value are the value: neither bare lines nor keys (no second PORT)
  { name: 'multi-line quoted .env values', files: { '.env': 'GREETING="hello\nthere"\nNOTE=\'a\nPORT=1\'\nPORT=9000\n' }, expect: 'valid' },
];

const ENVIRONMENT: Case[] = [
  { name: 'unrelated variables are left alone', env: { HOME: '/root', PATH: '/bin', AUTH_SECRET: 'auth.js', WS_ENDPOINT: 'x', PROXY_LIST: 'y', SERVER_NAME: 'www', SERVER_SOFTWARE: 'cgi' }, expect: 'valid' },
  { name: 'DATABASE_URL for a PostgreSQL bind', files: { 'fw.json': FW('{ "DATABASE_BINDS": { "main": "postgresql://u@127.0.0.1:5432/dev" } }') }, env: { DATABASE_URL: 'postgres://app@db:5432/app' }, expect: 'valid' },
  { name: 'a PostgreSQL DATABASE_URL for a SQLite bind', env: { DATABASE_URL: 'postgres://app@db:5432/app' }, expect: ['environment: DATABASE_URL: a postgresql URL, but bind "main" is sqlite in DATABASE_BINDS'] },
  { name: 'a MySQL DATABASE_URL', env: { DATABASE_URL: 'mysql://u:pw@db/app' }, expect: ['environment: DATABASE_URL: unsupported scheme "mysql:"', 'bind "main" (SECURITY_MODELS_DB_BIND)'] },
  { name: 'REDIS_URL without a scheme', env: { REDIS_URL: 'localhost:6379' }, expect: ['environment: REDIS_URL: got "localhost:6379"; expected a redis:// or rediss:// URL'] },
  { name: "fw's own process variables", env: { FW_APP: 'app', FW_LOG_LEVEL: 'warn', FW_CACHE: 'off', FW_DEBUG: '1' }, expect: 'valid' },
  { name: 'CACHE_TIPE in the environment', env: { CACHE_TIPE: 'redis' }, expect: ['environment: CACHE_TIPE: unknown key; did you mean CACHE_TYPE?'] },
  { name: 'FW_TAILWIN', env: { FW_TAILWIN: '1' }, expect: ['environment: FW_TAILWIN: unknown key; did you mean FW_TAILWIND?'] },
  { name: 'I18N_SUPPORTED_LOCALE', env: { I18N_SUPPORTED_LOCALE: 'en,fr' }, expect: ['environment: I18N_SUPPORTED_LOCALE: unknown key; did you mean I18N_SUPPORTED_LOCALES?'] },
  { name: 'EVENTS_QUEUE_SIZE', env: { EVENTS_QUEUE_SIZE: '10' }, expect: ['environment: EVENTS_QUEUE_SIZE: unknown key; did you mean EVENTS_EVENT_QUEUE_SIZE?'] },
  { name: 'a bad environment value', env: { MAIL_PORT: 'abc' }, expect: ['environment: MAIL_PORT: got "abc"'] },
  { name: 'a misspelt X_FILE', env: { CACHE_DIRR_FILE: '/x' }, expect: ['environment: CACHE_DIRR: unknown key; did you mean CACHE_DIR?'] },
  { name: 'an http URL for redis events', env: { EVENTS_REDIS_URL: 'http://127.0.0.1' }, expect: ['environment: EVENTS_REDIS_URL: got "http://127.0.0.1"; expected a redis URL'] },
];

const MANIFESTS: Case[] = [
  { name: 'a valid manifest', files: MANIFEST('{ "name": "blog", "version": "0.1.0", "description": "A blog", "frontend": { "type": "none" } }'), expect: 'valid' },
  { name: 'a manifest with a BOM', files: MANIFEST('\uFEFF{ "name": "blog", "version": "1.0.0-beta.1" }'), expect: 'valid' },
  { name: 'version "abc"', files: MANIFEST('{\n  "name": "blog",\n  "version": "abc"\n}'), expect: ['manifest.json:3:3: version: got "abc"; expected a semantic version'] },
  { name: 'name 42', files: MANIFEST('{ "name": 42, "version": "1.0.0" }'), expect: ['manifest.json:1:3: name: got 42; expected a string'] },
  { name: 'an unknown manifest key', files: MANIFEST('{ "name": "blog", "version": "1.0.0", "routes": [] }'), expect: ['manifest.json:1:39: routes: unknown key; expected only the keys name, version, description, frontend, package'] },
  { name: 'descripton', files: MANIFEST('{ "name": "blog", "version": "1.0.0", "descripton": "x" }'), expect: ['descripton: unknown key; did you mean description?'] },
  { name: "another Additive's name", files: MANIFEST('{ "name": "blgo", "version": "1.0.0" }'), expect: ['manifest.json:1:3: name: got "blgo"; expected "blog", the Additive\'s own name'] },
  { name: 'a manifest that is not JSON', files: MANIFEST('{ "name": "blog", "version": "1.0.0"'), expect: ['manifest.json:1:37: not valid JSON'] },
  { name: 'a repeated manifest key', files: MANIFEST('{\n  "name": "blog",\n  "version": "1.0.0",\n  "version": "2.0.0"\n}'), expect: ['manifest.json:4:3: version: got a second "version"', 'first at line 3'] },
  { name: 'a Vite surface without a framework', files: MANIFEST('{ "name": "blog", "version": "1.0.0", "frontend": { "type": "vite" } }'), expect: ['frontend.framework: got nothing; expected one of'] },
  { name: 'alpine: "yes"', files: MANIFEST('{ "name": "blog", "version": "1.0.0", "frontend": { "type": "htmx", "alpine": "yes" } }'), expect: ['frontend.alpine: got "yes"; expected a boolean'] },
];

const CORPUS = [...FW_JSON, ...INI_FILES, ...DOTENV, ...ENVIRONMENT, ...MANIFESTS];

/** A project folder holding the case's files over a valid default project. */
function project(c: Case): string {
  const root = mkdtempSync(path.join(tmpdir(), 'fw-corpus-'));
  dirs.push(root);
  const files: Record<string, string> = { 'fw.json': '{ "name": "app" }\n', 'app_configs/app.ini': 'SECRET_KEY = s\n', ...c.files };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

/** The kernel's answer: `valid`, or the error's message (which must be a ConfigError). */
function kernel(c: Case, root: string): string {
  try {
    loadConfigDetails({ root, env: c.env ?? {} });
    if (c.files?.['additives/blog/manifest.json'] !== undefined) new Additive('blog', { root: path.join(root, 'additives/blog') });
    return 'valid';
  } catch (error) {
    expect(error, String(error)).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

/** The generators' answer for the files they read (fw.json, manifests); `undefined` for the others. */
async function generators(c: Case): Promise<string | undefined> {
  const fwJson = c.files?.['fw.json'];
  const manifest = c.files?.['additives/blog/manifest.json'];
  try {
    if (fwJson !== undefined) await validateConfigText(fwJson);
    else if (manifest !== undefined) await validateManifest('blog', manifest);
    else return undefined;
    return 'valid';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the config corpus', () => {
  test('holds at least 50 malformed files and some valid ones, of every kind', () => {
    expect(CORPUS.filter((c) => c.expect !== 'valid').length).toBeGreaterThanOrEqual(50);
    for (const kind of [FW_JSON, INI_FILES, DOTENV, ENVIRONMENT, MANIFESTS]) expect(kind.some((c) => c.expect === 'valid')).toBe(true);
  });

  test.each(CORPUS.map((c) => ({ ...c, shown: c.name })))('$shown', async (c) => {
    const root = project(c);
    const answers = [kernel(c, root), await generators(c)].filter((a): a is string => a !== undefined);
    for (const answer of answers) {
      if (c.expect === 'valid') {
        expect(answer).toBe('valid');
        continue;
      }
      expect(answer, 'accepted silently').not.toBe('valid');
      for (const fragment of c.expect) expect(answer).toContain(fragment);
      expect(answer, 'a stack trace').not.toMatch(/\n\s+at /);
    }
  });

  test('the same file gets the same lines from the kernel and the generators', async () => {
    const c = FW_JSON.find((x) => x.name === 'CACHE_TIPE')!;
    const fromKernel = kernel(c, project(c));
    const fromGenerators = await generators(c);
    expect(fromKernel).toBe(`Invalid fw.json:\n${fromGenerators}`);
  });
});

describe('values that do get through', () => {
  test('an ini value holding ";" or "#" comes through whole when quoted or escaped', () => {
    const root = project({ name: '', expect: 'valid', files: INI('RATELIMIT_DEFAULT = "10/minute;100/hour"\nMAIL_PASSWORD = ab\\#cd\nPORT = 8000 ; dev port\n') });
    const { config } = loadConfigDetails({ root, env: {} });
    expect([config.RATELIMIT_DEFAULT, config.MAIL_PASSWORD, config.PORT]).toEqual(['10/minute;100/hour', 'ab#cd', 8000]);
  });

  test('.env sits between the ini and the environment; FW_APP in .env picks the ini', () => {
    const root = project({ name: '', expect: 'valid', files: { '.env': 'PORT=9000\nHOST=0.0.0.0\nGREETING=from-dotenv\n', 'app_configs/app.ini': 'SECRET_KEY = s\nPORT = 7000\nHOST = ::1\n' } });
    const { config } = loadConfigDetails({ root, env: { HOST: '127.0.0.2' } });
    expect(config.PORT).toBe(9000); // .env over the ini
    expect(config.HOST).toBe('127.0.0.2'); // the environment over .env
    expect(config.GREETING).toBe('from-dotenv');
    const staging = project({ name: '', expect: 'valid', files: { '.env': 'FW_APP=staging\n', 'app_configs/staging.ini': 'SECRET_KEY = t\nPORT = 1234\n' } });
    const loaded = loadConfigDetails({ root: staging, env: {} });
    expect(loaded.app).toBe('staging');
    expect(loaded.config.PORT).toBe(1234);
    expect(loaded.config.FW_APP).toBeUndefined();
  });

  test('origins say where each layer set a key: file and line (the X_FILE line, an alias line), or the variable', () => {
    const binds = '{"main": "file:./var/a.db"}';
    const root = project({
      name: '',
      expect: 'valid',
      files: {
        'fw.json': FW(`{ "DATABASE_BINDS": ${binds} }`),
        'app_configs/app.ini': `SECRET_KEY = s\n; local\nSQLALCHEMY_BINDS = ${binds}\n`,
        '.env': 'PORT=9000\nDATABASE_BINDS_FILE=binds.json\n',
        'binds.json': binds,
      },
    });
    const loaded = loadConfigDetails({ root, env: { DATABASE_URL: 'file:./var/b.db', PORT: '9001', REDIS_URL: 'redis://127.0.0.1:6379' } });
    expect(loaded.sources.DATABASE_BINDS).toEqual(['fw.json', 'app_configs/app.ini', '.env', 'environment (DATABASE_URL)']);
    expect(loaded.origins.DATABASE_BINDS).toEqual(['fw.json:3:15', 'app_configs/app.ini:3', '.env:2', 'environment variable DATABASE_URL']);
    expect(loaded.origins.PORT).toEqual(['.env:1', 'environment variable PORT']);
    expect(loaded.origins.CACHE_REDIS_URL).toEqual(['environment variable REDIS_URL']);
    writeFileSync(path.join(root, '.env'), '');
    expect(loadConfigDetails({ root, env: { SQLALCHEMY_BINDS_FILE: path.join(root, 'binds.json') } }).origins.DATABASE_BINDS).toEqual([
      'fw.json:3:15',
      'app_configs/app.ini:3',
      'environment variable SQLALCHEMY_BINDS_FILE',
    ]);
  });

  test('locales turn EXT_I18N on, unless a layer sets it', () => {
    const on = project({ name: '', expect: 'valid', files: { 'fw.json': FW('{ "I18N_SUPPORTED_LOCALES": ["en", "fr"] }') } });
    expect(loadConfigDetails({ root: on, env: {} }).config.EXT_I18N).toBe(true);
    expect(loadConfigDetails({ root: on, env: { EXT_I18N: 'false' } }).config.EXT_I18N).toBe(false);
    const off = project({ name: '', expect: 'valid' });
    expect(loadConfigDetails({ root: off, env: {} }).config.EXT_I18N).toBe(false);
  });
});

describe('through the commands: an error line, never a stack trace', () => {
  const FW_BIN = path.join(REPO, 'generators/dist/bin/fw.js');

  test('fw generate on a bad fw.json and on a bad manifest; fw run on a bad ini', () => {
    const badJson = project({ name: '', expect: [], files: { 'fw.json': '{\n  "name": "app",\n  "config": { "CACHE_TIPE": "redis" }\n}\n' } });
    const generate = spawnSync(process.execPath, [FW_BIN, 'generate'], { cwd: badJson, encoding: 'utf8' });
    expect(generate.status).toBe(1);
    expect(generate.stderr).toBe('error: fw.json:3:15: config.CACHE_TIPE: unknown key; did you mean CACHE_TYPE? (CACHE_ is reserved for fw\'s keys (CACHE_TYPE, CACHE_REDIS_URL, CACHE_DIR); name a key of your own without it)\n');

    const badManifest = project({ name: '', expect: [], files: { 'fw.json': '{ "name": "app", "additives": ["blog"] }\n', ...MANIFEST('{ "name": "blog", "version": "abc" }') } });
    const manifest = spawnSync(process.execPath, [FW_BIN, 'generate'], { cwd: badManifest, encoding: 'utf8' });
    expect(manifest.status).toBe(1);
    expect(manifest.stderr).toMatch(/^error: additives\/blog\/manifest\.json:1:19: version: got "abc"; expected a semantic version[^\n]*\n$/);

    const badIni = project({ name: '', expect: [], files: INI('CACHE_TIPE = redis\n') });
    mkdirSync(path.join(badIni, 'node_modules/@fw'), { recursive: true });
    symlinkSync(path.join(REPO, 'runtime-kernel'), path.join(badIni, 'node_modules/@fw/kernel'));
    mkdirSync(path.join(badIni, 'fluid'));
    writeFileSync(path.join(badIni, 'fluid/app.ts'), "import { Fluid } from '@fw/kernel';\nexport default new Fluid({ root: new URL('..', import.meta.url) });\n");
    const run = spawnSync(process.execPath, [FW_BIN, 'run', '--port', '0'], { cwd: badIni, encoding: 'utf8', timeout: 30_000, env: { ...process.env, FW_APP: 'app' } });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^error: Invalid config for app 'app':\napp_configs\/app\.ini:2: CACHE_TIPE: unknown key; did you mean CACHE_TYPE\?[^\n]*\n$/);
  });
});
