/**
 * `fw generate` (the built CLI) SIGKILLed during a large write: every file is old or new, the
 * record is consistent (every entry's blob is in the store and matches), the stale lock and the
 * temp files are cleaned up by the next run, which completes the work. Needs `npm run build`.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { readRecord, readStored } from '../../generators/src/pipeline/record.js';
import { listFiles, REPO } from '../generators/helpers.js';
import { editConfig, fw, newProject, snapshot } from '../generators/project-helpers.js';

const FW_BIN = path.join(REPO, 'generators/dist/bin/fw.js');
const COUNT = 100;
const names = Array.from({ length: COUNT }, (_, i) => `a${String(i).padStart(3, '0')}`);

test('SIGKILL mid-write: files old or new, record consistent, the next run completes and cleans up', async () => {
  if (!existsSync(FW_BIN)) throw new Error(`missing ${FW_BIN}: run "npm run build" first (npm test does).`);
  const root = await newProject('kill-app');
  await editConfig(root, (c) => {
    c.additives = names;
    c.config.APP_FRONTEND = { type: 'htmx', alpine: true };
  });
  const before = await snapshot(root);

  const proc = spawn(process.execPath, [FW_BIN, 'generate'], { cwd: root, stdio: 'ignore' });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.on('exit', (_code, signal) => resolve(signal)));
  const firstFile = path.join(root, 'additives/a005/index.ts');
  const lastFile = path.join(root, `additives/${names.at(-1)}/templates/${names.at(-1)}/index.html`);
  const deadline = Date.now() + 60_000;
  while (!existsSync(firstFile)) {
    if (Date.now() > deadline) throw new Error('fw generate never started writing');
    await new Promise((r) => setTimeout(r, 1));
  }
  proc.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  expect(existsSync(lastFile), 'the kill must land before the last file is written').toBe(false);
  expect(existsSync(path.join(root, '.fw/lock')), 'the killed run leaves its lock').toBe(true);

  // Record consistent right after the kill: every entry's blob exists and matches its hash.
  const killedRecord = await readRecord(root);
  for (const [file, entry] of Object.entries(killedRecord!.files)) {
    await expect(readStored(root, entry.sha256), file).resolves.toBeInstanceOf(Buffer);
  }
  const afterKill = new Map<string, Buffer>();
  for (const file of await listFiles(root)) if (!file.includes('.fw-tmp-') && !file.startsWith('.fw/')) afterKill.set(file, await readFile(path.join(root, file)));
  // Plant a leftover temp file as a killed writer would (the kill may or may not have left one).
  await writeFile(path.join(root, 'additives/a005/index.ts.fw-tmp-deadbeef0001'), 'half a file');

  const rerun = await fw(root, 'generate');
  expect(rerun.code, rerun.error ?? rerun.out).toBe(0);
  const final = await snapshot(root);
  expect([...final.keys()].filter((f) => f.includes('.fw-tmp-'))).toEqual([]);
  expect(final.has('.fw/lock')).toBe(false);
  // Every file seen after the kill was either the old one or the new one, never half.
  for (const [file, bytes] of afterKill) {
    const old = before.get(file)?.bytes;
    const now = final.get(file)?.bytes;
    expect(bytes.equals(now ?? Buffer.alloc(0)) || (old !== undefined && bytes.equals(old)), `${file} is neither old nor new`).toBe(true);
  }
  for (const name of names) expect(final.has(`additives/${name}/templates/${name}/index.html`), name).toBe(true);
  const record = await readRecord(root);
  for (const [file, entry] of Object.entries(record!.files)) expect(final.has(file) || entry.generator !== 'additive:a000', file).toBe(true);
  const app = await readFile(path.join(root, 'fluid/app.ts'), 'utf8');
  for (const name of names) expect(app.match(new RegExp(`fluid\\.additive\\(${name}\\);`, 'g')), name).toHaveLength(1);
  const settled = await snapshot(root);
  expect((await fw(root, 'generate')).out).toMatch(/^\d+ files: \d+ unchanged\n$/);
  expect(await snapshot(root)).toEqual(settled);
}, 180_000);
