import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** Runs a fresh Node process that imports `module`, optionally runs a codemod, and reports which ts-morph/typescript files got loaded. */
function loadedAfter(module: string, runCodemod: boolean): string[] {
  const script = `
    import { createRequire } from 'node:module';
    const require = createRequire(import.meta.url);
    const m = await import(${JSON.stringify(module)});
    if (${runCodemod}) await m.registerAdditive({ path: 'fluid/app.ts', text: 'const fluid = new Fluid({});\\n' }, 'blog');
    const loaded = Object.keys(require.cache).filter((k) => /node_modules[\\\\/](ts-morph|typescript|@ts-morph)[\\\\/]/.test(k));
    process.stdout.write(JSON.stringify(loaded));
  `;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repo, encoding: 'utf8', timeout: 60_000 });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as string[];
}

describe('ts-morph is loaded lazily', () => {
  it('importing the codemods module does not load ts-morph or typescript', () => {
    expect(loadedAfter('./generators/src/codemods/index.ts', false)).toEqual([]);
  });

  it('importing the pipeline does not load them either', () => {
    expect(loadedAfter('./generators/src/pipeline/index.ts', false)).toEqual([]);
  });

  it('the first codemod call loads ts-morph (so the check above can fail)', () => {
    expect(loadedAfter('./generators/src/codemods/index.ts', true).some((k) => k.includes('ts-morph'))).toBe(true);
  });
});
