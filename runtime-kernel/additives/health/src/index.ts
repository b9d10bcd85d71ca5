import { Additive } from '@fw/kernel';

/**
 * A readiness check: resolves (with anything) when the dependency it checks is usable, throws or
 * rejects when it is not. Examples: a database `SELECT 1`, a Redis `PING`.
 */
export type ReadinessCheck = () => unknown;

/** How long one readiness check may take before it counts as failed, in milliseconds. */
export const CHECK_TIMEOUT_MS = 2_000;

/** The answer of `GET /api/health/ready`: each check's outcome by name. */
export interface Readiness {
  status: 'ready' | 'unavailable';
  checks: Record<string, 'ok' | string>;
}

const checks = new Map<string, ReadinessCheck>();

/**
 * Adds a readiness check (by a unique name). `GET /api/health/ready` runs every check at once and
 * answers 503 while any of them fails, so a load balancer stops sending traffic to this process
 * until its dependencies are back.
 */
export function addReadinessCheck(name: string, check: ReadinessCheck): void {
  if (name.trim() === '') throw new TypeError('addReadinessCheck: the name must not be empty');
  if (checks.has(name)) throw new Error(`addReadinessCheck: a check named "${name}" is already registered`);
  checks.set(name, check);
}

/** Removes a readiness check; returns whether one was registered under that name. */
export function removeReadinessCheck(name: string): boolean {
  return checks.delete(name);
}

async function outcome(check: ReadinessCheck): Promise<'ok' | string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([Promise.resolve().then(check), timeout]);
    return 'ok';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every readiness check (concurrently) and sums them up. */
export async function readiness(): Promise<Readiness> {
  const results = await Promise.all([...checks].map(async ([name, check]) => [name, await outcome(check)] as const));
  return { status: results.every(([, r]) => r === 'ok') ? 'ready' : 'unavailable', checks: Object.fromEntries(results) };
}

/**
 * The "health" Additive. Register it with `fluid.additive(health)` (`fw ocean install health`
 * does it for you). Its routes, under the Additive's `/api/health` prefix:
 * - `GET /api/health` (`health.live`): 200 `{"status":"ok"}` while the process serves requests;
 * - `GET /api/health/ready` (`health.ready`): 200 with every check `ok`, else 503 naming the
 *   failing checks and why (each check has {@link CHECK_TIMEOUT_MS}).
 * Both answers are `Cache-Control: no-store`, so no proxy serves a stale state.
 */
export const health = new Additive('health', { root: new URL('..', import.meta.url) });

health.api.get('live', '/', (ctx) => {
  ctx.set('Cache-Control', 'no-store');
  return { status: 'ok' };
});

health.api.get('ready', '/ready', async (ctx) => {
  ctx.set('Cache-Control', 'no-store');
  const result = await readiness();
  if (result.status !== 'ready') ctx.status = 503;
  return result;
});

export default health;
