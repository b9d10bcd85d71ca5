/**
 * The create path (`create-fw-app` → `commands/create-project.ts` → the pipeline) is bundled on
 * its own into the tiny create-fw-app package: nothing on it may import prettier, ts-morph,
 * TypeScript or node-plop, statically or dynamically. esbuild's bundle of the entry lists every
 * module it reaches.
 */
import path from 'node:path';
import { build } from 'esbuild';
import { expect, test } from 'vitest';
import { REPO } from './helpers.js';

const HEAVY = ['prettier', 'ts-morph', '@ts-morph', 'typescript', 'node-plop', 'gettext-parser', 'typesafe-i18n'];

/** The modules the bundle of `entry` includes (dynamic imports too), as paths relative to the checkout. */
async function reached(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [path.join(REPO, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

const heavy = (inputs: string[]): string[] => [...new Set(inputs.flatMap((i) => HEAVY.filter((h) => i.includes(`node_modules/${h}/`))))].sort();

test('create-fw-app reaches none of prettier, ts-morph, typescript, node-plop (nor the i18n render)', async () => {
  const inputs = await reached('generators/src/bin/create-fw-app.ts');
  expect(inputs.some((i) => i.includes('generators/src/pipeline/plan.ts'))).toBe(true);
  expect(heavy(inputs)).toEqual([]);
}, 60_000);

test('fw reaches them (so the check above can fail)', async () => {
  expect(heavy(await reached('generators/src/bin/fw.ts'))).toEqual(expect.arrayContaining(['prettier', 'ts-morph']));
}, 60_000);
