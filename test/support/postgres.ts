/**
 * A throwaway PostgreSQL cluster for tests, from the Debian package's binaries:
 *
 *   const pg = await startPostgres();   // initdb + pg_ctl start on 127.0.0.1:<free port>
 *   pg.url('my_db')                     // postgresql://fw_test@127.0.0.1:<port>/my_db
 *   await pg.stop();                    // pg_ctl stop, data directory removed
 *   pg.signal('SIGSTOP')                // freeze (or thaw, SIGCONT) the server and every backend
 *   pg.halt(); pg.start()               // shut it down (connections refused), then start it again
 *
 * PostgreSQL refuses to run as root, so under root the server runs as the `postgres` user
 * (`runuser`), with its data directory and unix-socket directory in /tmp owned by that user.
 * Auth is `trust` on loopback for the role `fw_test` (LOGIN CREATEDB), which owns the database
 * `fw_test`. A missing PostgreSQL install is an error, never a skip.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './redis.js';

/** A running test cluster. */
export interface TestPostgres {
  readonly port: number;
  /** The test role (LOGIN CREATEDB, trust auth). */
  readonly user: string;
  /** `postgresql://fw_test@127.0.0.1:<port>/<database>` (default database `fw_test`). */
  url(database?: string): string;
  /** Stops the server and removes its data directory (idempotent). */
  stop(): Promise<void>;
  /** Sends `signal` to the postmaster and every process it started (SIGSTOP freezes the whole server). */
  signal(signal: NodeJS.Signals): void;
  /** Shuts the server down (`pg_ctl stop -m fast`), keeping its data: connections are refused until `start()`. */
  halt(): void;
  /** Starts a halted server again on the same port and data. */
  start(): void;
}

const ROLE = 'fw_test';

// A test process that dies without calling stop() must not leave a server behind.
const live = new Set<() => void>();
process.once('exit', () => {
  for (const stop of live) stop();
});

/** The newest `/usr/lib/postgresql/<major>/bin`, or a clear error. */
function postgresBin(): string {
  const base = '/usr/lib/postgresql';
  const majors = existsSync(base) ? readdirSync(base).filter((v) => existsSync(path.join(base, v, 'bin', 'pg_ctl'))) : [];
  const major = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (!major) throw new Error(`PostgreSQL server binaries not found under ${base}/<major>/bin (install the Debian package "postgresql"; .ci/setup does)`);
  return path.join(base, major, 'bin');
}

/** The command prefix that runs a PostgreSQL binary as a non-root user, and that user's ids. */
function runAs(): { prefix: string[]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0) throw new Error('running as root, but there is no "postgres" user to run PostgreSQL as (the Debian package creates it)');
  return { prefix: ['runuser', '-u', 'postgres', '--'], uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function run(cmd: string[], what: string): void {
  const result = spawnSync(cmd[0]!, cmd.slice(1), { encoding: 'utf8', cwd: '/tmp' });
  if (result.error || result.status !== 0) {
    throw new Error(`${what} failed (${cmd.join(' ')}): ${result.error?.message ?? `${result.stdout}${result.stderr}`}`);
  }
}

/** Starts a fresh cluster on a free loopback port and creates the test role and database. */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  const as = runAs();
  const dir = mkdtempSync('/tmp/fw-pg-');
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  if (as.uid !== undefined) chownSync(dir, as.uid, as.gid!);
  const superuser = as.uid !== undefined ? 'postgres' : userInfo().username;
  let stopped = false;
  const stopSync = (): void => {
    if (stopped) return;
    stopped = true;
    live.delete(stopSync);
    signalAll('SIGCONT'); // a frozen server cannot stop
    const pgCtl = [...as.prefix, path.join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'];
    spawnSync(pgCtl[0]!, pgCtl.slice(1), { cwd: '/tmp', stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  };
  const stop = async (): Promise<void> => stopSync();
  /** The postmaster (first line of postmaster.pid) and its children. */
  function signalAll(signal: NodeJS.Signals): void {
    const pidFile = path.join(data, 'postmaster.pid');
    if (!existsSync(pidFile)) return;
    const postmaster = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    const children = spawnSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' }).stdout.split(/\s+/).filter(Boolean).map(Number);
    for (const pid of [postmaster, ...children]) {
      try {
        process.kill(pid, signal);
      } catch {
        // gone already
      }
    }
  }
  live.add(stopSync);
  try {
    run([...as.prefix, path.join(bin, 'initdb'), '-D', data, '-U', superuser, '--auth=trust', '-E', 'UTF8', '--no-sync'], 'initdb');
    const port = await freePort();
    const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    const start = (): void => {
      try {
        run([...as.prefix, path.join(bin, 'pg_ctl'), '-D', data, '-l', log, '-o', options, '-w', '-t', '30', 'start'], 'pg_ctl start');
      } catch (error) {
        const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-10).join('\n') : '';
        throw new Error(`${(error as Error).message}\n${tail}`);
      }
    };
    start();
    const admin = new pg.Client({ host: '127.0.0.1', port, user: superuser, database: 'postgres' });
    await admin.connect();
    try {
      await admin.query(`CREATE ROLE ${ROLE} LOGIN CREATEDB`);
      await admin.query(`CREATE DATABASE ${ROLE} OWNER ${ROLE}`);
    } finally {
      await admin.end();
    }
    return {
      port,
      user: ROLE,
      url: (database = ROLE) => `postgresql://${ROLE}@127.0.0.1:${port}/${database}`,
      stop,
      signal: signalAll,
      halt: () => run([...as.prefix, path.join(bin, 'pg_ctl'), '-D', data, '-m', 'fast', '-w', 'stop'], 'pg_ctl stop'),
      start,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
