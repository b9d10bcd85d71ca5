import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CONFIG_ALIASES, CONFIG_KEYS, VITE_FRAMEWORKS, emitJsonSchemas } from '@fw/schemas';

const run = promisify(execFile);
type Json = Record<string, unknown>;

let dir: string;
const schemas: Record<string, Json> = {};
const FILES = ['additive-manifest.schema.json', 'app-config.schema.json', 'frontend.schema.json', 'fw.schema.json'];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fw-json-schema-'));
  const written = await emitJsonSchemas(dir);
  expect(written.map((p) => p.slice(dir.length + 1)).sort()).toEqual(FILES);
  for (const file of FILES) schemas[file] = JSON.parse(await readFile(join(dir, file), 'utf8')) as Json;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const props = (node: unknown): Json => (node as { properties: Json }).properties;

/** Checks a JSON value against the subset of JSON Schema the emitted files use (type, enum, const, required, additionalProperties, oneOf, items). */
function conforms(value: unknown, schema: Json): boolean {
  if (Array.isArray(schema.oneOf)) return (schema.oneOf as Json[]).filter((s) => conforms(value, s)).length === 1;
  if ('const' in schema && value !== schema.const) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  const type = schema.type;
  if (type === 'string' && typeof value !== 'string') return false;
  if (type === 'boolean' && typeof value !== 'boolean') return false;
  if (type === 'integer' && !Number.isInteger(value)) return false;
  if (type === 'string' && typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(value as string)) return false;
  if (type === 'array') {
    if (!Array.isArray(value)) return false;
    return schema.items === undefined || value.every((v) => conforms(v, schema.items as Json));
  }
  if (type === 'object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const record = value as Json;
    const known = (schema.properties ?? {}) as Json;
    for (const key of (schema.required ?? []) as string[]) if (!(key in record)) return false;
    for (const [key, v] of Object.entries(record)) {
      if (key in known) {
        if (!conforms(v, known[key] as Json)) return false;
      } else if (schema.additionalProperties === false) {
        return false;
      } else if (typeof schema.additionalProperties === 'object' && !conforms(v, schema.additionalProperties as Json)) {
        return false;
      }
      const names = schema.propertyNames as Json | undefined;
      if (names?.pattern !== undefined && !new RegExp(names.pattern as string).test(key)) return false;
    }
  }
  return true;
}

describe('emitted JSON Schema files', () => {
  test('every file is draft-07 with a title', () => {
    for (const file of FILES) {
      expect(schemas[file]?.$schema).toBe('http://json-schema.org/draft-07/schema#');
      expect(typeof schemas[file]?.title).toBe('string');
    }
  });

  test('fw.schema.json describes every key, config key and alias', () => {
    const fw = schemas['fw.schema.json'] as Json;
    expect(fw.required).toEqual(['name']);
    expect(fw.additionalProperties).toBe(false);
    expect(Object.keys(props(fw))).toEqual(['$schema', 'name', 'additives', 'config']);
    const config = props(fw).config as Json;
    expect(Object.keys(props(config))).toEqual([...CONFIG_KEYS, ...Object.keys(CONFIG_ALIASES)]);
    for (const [key, node] of Object.entries(props(config))) {
      expect(typeof (node as Json).description, key).toBe('string');
    }
    expect((props(config).EXT_BABEL as Json).deprecated).toBe(true);
    expect((props(config).PORT as Json).default).toBe(8000);
  });

  test('a sample fw.json conforms; broken ones do not', () => {
    const fw = schemas['fw.schema.json'] as Json;
    const sample = {
      $schema: './node_modules/create-fw-app/schemas/json/fw.schema.json',
      name: 'my-app',
      additives: ['blog'],
      config: { APP_FRONTEND: { type: 'htmx', alpine: true }, DEBUG: true, PORT: 8080, MY_APP_KEY: 'x' },
    };
    expect(conforms(sample, fw)).toBe(true);
    expect(conforms({ ...sample, name: 'My App' }, fw)).toBe(false);
    expect(conforms({ ...sample, extra: 1 }, fw)).toBe(false);
    expect(conforms({ ...sample, config: { debug: true } }, fw)).toBe(false);
    expect(conforms({ ...sample, config: { APP_FRONTEND: { type: 'vite' } } }, fw)).toBe(false);
    expect(conforms({ additives: [] }, fw)).toBe(false);
  });

  test('frontend.schema.json: one branch per type, the framework enum, framework required', () => {
    const fe = schemas['frontend.schema.json'] as Json;
    const branches = fe.oneOf as Json[];
    expect(branches.map((b) => (props(b).type as Json).const)).toEqual(['none', 'htmx', 'vite']);
    const vite = branches[2] as Json;
    expect((props(vite).framework as Json).enum).toEqual([...VITE_FRAMEWORKS]);
    expect(vite.required).toEqual(['type', 'framework']);
    for (const f of VITE_FRAMEWORKS) expect(conforms({ type: 'vite', framework: f }, fe)).toBe(true);
    expect(conforms({ type: 'vite', framework: 'angular' }, fe)).toBe(false);
    expect(conforms({ type: 'none', alpine: true }, fe)).toBe(false);
    expect(conforms({ type: 'htmx' }, fe)).toBe(true);
  });

  test('additive-manifest.schema.json validates a sample manifest', () => {
    const m = schemas['additive-manifest.schema.json'] as Json;
    expect(m.required).toEqual(['name', 'version']);
    expect(conforms({ name: 'blog', version: '0.1.0', frontend: { type: 'none' } }, m)).toBe(true);
    expect(conforms({ name: 'blog', version: '0.1' }, m)).toBe(false);
    expect(conforms({ name: 'blog' }, m)).toBe(false);
  });

  test('app-config.schema.json lists the ini keys', () => {
    const a = schemas['app-config.schema.json'] as Json;
    expect(Object.keys(props(a))).toContain('SECRET_KEY');
    expect(conforms({ SECRET_KEY: 'abc', DEBUG: false, CACHE_TYPE: 'redis' }, a)).toBe(true);
    expect(conforms({ CACHE_TYPE: 'memcached' }, a)).toBe(false);
  });

  test('the emitter also runs as a script', async () => {
    const out = await mkdtemp(join(tmpdir(), 'fw-json-schema-cli-'));
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'schemas/src/emit.ts', out], {
        cwd: new URL('../..', import.meta.url),
      });
      expect(stdout).toContain(`wrote 4 JSON Schema files to ${out}`);
      expect((await readdir(out)).sort()).toEqual(FILES);
      expect(JSON.parse(await readFile(join(out, 'fw.schema.json'), 'utf8'))).toEqual(schemas['fw.schema.json']);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
