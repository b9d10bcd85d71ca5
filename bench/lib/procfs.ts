/**
 * What Linux's /proc says about a process: CPU time (user + system), resident memory, and the
 * machine's load average. Read from outside the process, so measuring costs the server nothing.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of the `utime`/`stime` fields (`getconf CLK_TCK`, 100 on Linux). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid: number | 'self'): string[] {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** CPU time the process has used so far (user + system), in microseconds (10 ms resolution). */
export function cpuMicros(pid: number): number {
  const f = statFields(pid);
  // Fields 14 and 15 of stat(5); the slice above starts at field 3.
  return ((Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND) * 1e6;
}

/**
 * CPU time of a process and every live descendant (a node:cluster primary and its workers), in
 * microseconds; for a process without children the same as {@link cpuMicros}. A descendant that
 * exits between two readings takes its CPU with it, so measure trees whose processes stay up.
 */
export function treeCpuMicros(pid: number): number {
  let total = 0;
  const pending = [pid];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    try {
      total += cpuMicros(next);
      for (const task of readdirSync(`/proc/${next}/task`)) {
        const children = readFileSync(`/proc/${next}/task/${task}/children`, 'utf8').trim();
        if (children) pending.push(...children.split(' ').map(Number));
      }
    } catch {
      // The process exited while being read: nothing more to count.
    }
  }
  return total;
}

/**
 * CPU time of this process's finished (waited-for) children and their descendants, in
 * microseconds: the difference around one `spawnSync` is that command's whole CPU.
 */
export function childrenCpuMicros(): number {
  const f = statFields('self');
  // Fields 16 and 17 of stat(5): cutime and cstime.
  return ((Number(f[13]) + Number(f[14])) / TICKS_PER_SECOND) * 1e6;
}

/** Resident set size of a process, in bytes (VmRSS). */
export function rssBytes(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!line) throw new Error(`/proc/${pid}/status has no VmRSS line`);
  return Number(line[1]) * 1024;
}

/** The 1, 5 and 15 minute load averages, as /proc/loadavg prints them ("0.52 0.61 0.70"). */
export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}
