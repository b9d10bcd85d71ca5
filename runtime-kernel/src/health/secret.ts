/**
 * Catches the silent scale-out trap of different `SECRET_KEY`s: with auth on a Redis cache, every process publishes a
 * fingerprint of its key in the shared cache (`fw:secret:<app>:<fingerprint>`, refreshed every
 * 30 s, expiring after 90 s, withdrawn at shutdown) and reads the others'. A process that finds a fingerprint other than
 * its own logs an error once per foreign fingerprint, naming the host and pid that published it:
 * sessions, CSRF tokens and JWTs signed by one of them are rejected by the other.
 *
 * The fingerprint is an HMAC of a fixed text under the key, 12 hex characters: it tells keys
 * apart without revealing anything about them.
 */
import { createHmac } from 'node:crypto';
import { hostname } from 'node:os';
import type { Cache } from '../cache/cache.js';
import type { Logger } from '../core/errors.js';

/** What `fw:secret:<app>:<fingerprint>` holds. */
interface Published {
  [key: string]: string | number;
  host: string;
  pid: number;
}

/** A running fingerprint publisher. */
export interface SecretBeacon {
  /** Publishes this process's fingerprint and compares it with the others' (also run every 30 s). */
  check(): Promise<void>;
  /**
   * Stops the refresh timer and withdraws this process's fingerprint (when it still names this
   * process), so a process started after it with another key (a rotated SECRET_KEY, a fixed typo)
   * is not told about a process that is gone.
   */
  stop(): Promise<void>;
}

/** The fingerprint of a secret. */
export function secretFingerprint(secret: string): string {
  return createHmac('sha256', secret).update('fw: SECRET_KEY fingerprint').digest('hex').slice(0, 12);
}

/** Starts publishing (the first check runs now) and returns the beacon. */
export function secretBeacon(options: { cache: Cache; secret: string; app: string; logger: Logger; intervalMs?: number }): SecretBeacon {
  const { cache, app, logger } = options;
  const interval = options.intervalMs ?? 30_000;
  const mine = secretFingerprint(options.secret);
  const prefix = `fw:secret:${app}:`;
  const reported = new Set<string>();
  const check = async (): Promise<void> => {
    try {
      await cache.set(prefix + mine, { host: hostname(), pid: process.pid } satisfies Published, Math.ceil((interval * 3) / 1000));
      for (const key of await cache.keys(prefix)) {
        const other = key.slice(prefix.length);
        if (other === mine || reported.has(other)) continue;
        const by = await cache.get<Published>(key);
        if (!by) continue;
        reported.add(other);
        logger.error(
          `SECRET_KEY differs between the processes of ${app}: this process (host ${hostname()}, pid ${process.pid}) has fingerprint ${mine}, ` +
            `host ${by.host} pid ${by.pid} has ${other}. Sessions, CSRF tokens and JWTs signed by one are rejected by the other: ` +
            'give every process the same SECRET_KEY.',
          { fingerprint: mine, other, otherHost: by.host, otherPid: by.pid },
        );
      }
    } catch {
      // The cache logs its own outage; the next round tries again.
    }
  };
  let running: Promise<void> = Promise.resolve();
  const next = (): Promise<void> => (running = running.then(check));
  const timer = setInterval(() => void next(), interval);
  timer.unref();
  void next();
  const stop = async (): Promise<void> => {
    clearInterval(timer);
    await running; // a check in flight would publish the fingerprint again after the delete
    try {
      const by = await cache.get<Published>(prefix + mine);
      if (by?.host === hostname() && by.pid === process.pid) await cache.delete(prefix + mine);
    } catch {
      // The cache is away: the entry expires on its own.
    }
  };
  return { check: next, stop };
}
