/** Shared helpers for the kernel tests: temp projects and a listening app. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Fluid, type FluidOptions, type Logger } from '@fw/kernel';

/** What a temp project holds. */
export interface ProjectSpec {
  name?: string;
  /** `fw.json` `config` block. */
  config?: Record<string, unknown>;
  /** `app_configs/<name>.ini` text; default sets a SECRET_KEY. `null` writes no ini. */
  ini?: string | Buffer | null;
  /** Extra files: relative path → content. */
  files?: Record<string, string | Buffer>;
}

const made: string[] = [];

/** The SECRET_KEY of a project made without an `ini` (long enough not to be warned about). */
export const TEST_SECRET = 'test-secret-0123456789abcdef0123456789';

/** Creates a project folder with fw.json, an ini and files. Removed by `cleanupProjects()`. */
export function makeProject(spec: ProjectSpec = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'fw-kernel-'));
  made.push(root);
  const name = spec.name ?? 'demo';
  writeFileSync(join(root, 'fw.json'), JSON.stringify({ name, config: spec.config ?? {} }, null, 2));
  if (spec.ini !== null) {
    mkdirSync(join(root, 'app_configs'));
    writeFileSync(join(root, 'app_configs', `${name}.ini`), spec.ini ?? `SECRET_KEY = ${TEST_SECRET}\n`);
  }
  for (const [rel, content] of Object.entries(spec.files ?? {})) {
    const file = join(root, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return root;
}

/** Removes every project made so far. */
export function cleanupProjects(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A logger that records lines instead of printing them. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const rec = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${level} ${message}${fields ? ' ' + JSON.stringify(fields, (_k, v: unknown) => (v instanceof Error ? v.message : v)) : ''}`);
  };
  return { lines, debug: rec('debug'), info: rec('info'), warn: rec('warn'), error: rec('error') };
}

/** A Fluid on a temp project, with an empty environment and a memory logger. */
export function makeFluid(spec: ProjectSpec = {}, options: Partial<FluidOptions> = {}): Fluid {
  const root = makeProject(spec);
  return new Fluid({ root, env: {}, logger: memoryLogger(), ...options });
}

/** The base URL of a listening server. */
export function baseUrl(server: Server): string {
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** Starts the app on a free loopback port; returns its base URL. */
export async function start(fluid: Fluid): Promise<string> {
  return baseUrl(await fluid.listen(0, '127.0.0.1'));
}
