/**
 * 10,000 subscribe/unsubscribe cycles over a real socket leave the heap flat (measured after GC
 * in a child started with --expose-gc) and the registry empty.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupProjects, makeProject } from '../kernel/helpers.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/churn.ts', import.meta.url));
afterEach(() => cleanupProjects());

describe('subscription churn', () => {
  it('10,000 subscribe/unsubscribe cycles keep memory flat and leave nothing registered', async () => {
    const root = makeProject();
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', FIXTURE, root, '10000'], {
      timeout: 120_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      cycles: number;
      before: number;
      after: number;
      wrong: number;
      listeners: number;
      subscribed: boolean;
    };
    expect(result).toMatchObject({ cycles: 10_000, wrong: 0, listeners: 0, subscribed: false });
    // 20,000 frames went through; a leak of even 100 bytes per cycle would show as 1 MB.
    expect(result.after - result.before).toBeLessThan(512 * 1024);
  });
});
