/** Node passthrough: loadNode, nodeCmd (NodeError), nodeProc, nodeCli. */
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadNode, nodeCli, nodeCmd, NodeError, nodeProc } from '@fw/kernel/frontend';
import { makeProject, cleanupProjects } from '../kernel/helpers.js';
import { afterAll } from 'vitest';

afterAll(() => cleanupProjects());

describe('loadNode', () => {
  it('answers the running Node, or the binary FW_NODE names', () => {
    expect(loadNode({})).toEqual({ node: process.execPath, binDir: dirname(process.execPath) });
    expect(loadNode({ FW_NODE: process.execPath }).node).toBe(process.execPath);
    expect(() => loadNode({ FW_NODE: '/nonexistent/node' })).toThrow(/FW_NODE names \/nonexistent\/node, which does not exist/);
  });
});

describe('nodeCmd', () => {
  it('runs node and npm and answers their output', async () => {
    expect((await nodeCmd(['node', '--version'], process.cwd())).trim()).toBe(process.version);
    expect((await nodeCmd(['npm', '--version'], process.cwd())).trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('raises NodeError with the exit code and the command\'s own output on a non-zero exit', async () => {
    const root = makeProject();
    const err = await nodeCmd(['node', '-e', 'console.error("boom at line 7"); process.exit(4)'], root).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeError);
    const e = err as NodeError;
    expect(e.exitCode).toBe(4);
    expect(e.output).toContain('boom at line 7');
    expect(e.message).toContain('boom at line 7');
    expect(e.command[0]).toBe('node');
  });

  it('raises NodeError when the command does not exist', async () => {
    await expect(nodeCmd(['definitely-not-a-command-fw'], process.cwd())).rejects.toBeInstanceOf(NodeError);
    await expect(nodeCmd([], process.cwd())).rejects.toThrow(/empty/);
  });
});

describe('nodeProc and nodeCli', () => {
  it('nodeProc spawns a long-lived process with the chosen Node first on PATH', async () => {
    const child = nodeProc(['node', '-e', 'console.log(process.execPath); setTimeout(() => {}, 60000)'], process.cwd(), { stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())));
    expect(line).toBe(process.execPath);
    child.kill();
  });

  it('nodeCli answers the exit code of the passthrough', async () => {
    expect(await nodeCli(['node', '-e', 'process.exit(0)'])).toBe(0);
    expect(await nodeCli(['node', '-e', 'process.exit(3)'])).toBe(3);
    await expect(nodeCli([])).rejects.toThrow(/name a command/);
  });
});
