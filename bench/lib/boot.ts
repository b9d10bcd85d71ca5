/**
 * Boot to first 200: start a server command in a fresh process, poll one path until it answers
 * 200, and record the wall time from spawn, the process's CPU time and its resident memory at
 * that moment; then stop it. Sides are interleaved round by round like every other comparison.
 */
import { spawn } from 'node:child_process';
import { get } from './http-compare.ts';
import { interleave } from './interleave.ts';
import { freePort } from './port.ts';
import { cpuMicros, rssBytes } from './procfs.ts';
import { pairedRow, type Row, type Sample } from './report.ts';

/** A server command; `argv(port)` must make it listen on 127.0.0.1:`port`. */
export interface BootCommand {
  label: string;
  argv: (port: number) => readonly [string, ...string[]];
  cwd: string;
  env?: (port: number) => NodeJS.ProcessEnv;
  /** The path polled for the first 200 (default `/`). */
  path?: string;
}

/** One boot. */
export interface Boot {
  ms: number;
  cpuMicros: number;
  rss: number;
}

/** Boots once; throws with the server's output when it exits or answers anything but 200. */
export async function bootOnce(c: BootCommand, timeoutMs = 120_000): Promise<Boot> {
  const port = await freePort();
  const [command, ...args] = c.argv(port);
  const started = performance.now();
  const child = spawn(command, args, { cwd: c.cwd, env: c.env?.(port) ?? process.env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${c.label} exited before answering:\n${stderr}`);
      if (performance.now() - started > timeoutMs) throw new Error(`${c.label}: no answer within ${timeoutMs} ms:\n${stderr}`);
      const answer = await get(`http://127.0.0.1:${port}${c.path ?? '/'}`).catch(() => undefined);
      if (answer) {
        const ms = performance.now() - started;
        if (answer.status !== 200) throw new Error(`${c.label}: first answer was ${answer.status}:\n${answer.body.toString().slice(0, 400)}\n${stderr}`);
        return { ms, cpuMicros: cpuMicros(child.pid!), rss: rssBytes(child.pid!) };
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(kill);
  }
}

/** One boot comparison: fw against a baseline server. */
export interface BootComparison {
  name: string;
  fw: BootCommand;
  baseline: BootCommand;
  target?: string;
  rssTarget?: string;
  note?: string;
}

/** Boots every command `rounds` times interleaved; answers a time row and an RSS row per comparison. */
export async function compareBoots(bench: string, comparisons: readonly BootComparison[], options: { rounds: number }): Promise<Row[]> {
  const commands = new Map<string, BootCommand>();
  for (const c of comparisons) for (const cmd of [c.fw, c.baseline]) commands.set(cmd.label, cmd);
  for (const cmd of commands.values()) await bootOnce(cmd); // warm the disk cache
  const boots = await interleave([...commands.keys()], options.rounds, (label) => bootOnce(commands.get(label)!));
  return comparisons.flatMap((c) => {
    const common = { bench };
    const side = (cmd: BootCommand, f: (b: Boot) => Sample) => ({ label: cmd.label, samples: boots[cmd.label]!.map(f) });
    const time = (b: Boot): Sample => ({ value: b.ms, cpu: b.cpuMicros });
    const rss = (b: Boot): Sample => ({ value: b.rss / 1024 / 1024 });
    return [
      pairedRow({ ...common, name: `boot to first 200: ${c.name}`, unit: 'ms', per: 'boot', fw: side(c.fw, time), baseline: side(c.baseline, time), ...(c.target ? { target: c.target } : {}), ...(c.note ? { note: c.note } : {}) }),
      pairedRow({ ...common, name: `RSS after boot: ${c.name}`, unit: 'MB', per: 'boot', fw: side(c.fw, rss), baseline: side(c.baseline, rss), ...(c.rssTarget ? { target: c.rssTarget } : {}) }),
    ];
  });
}
