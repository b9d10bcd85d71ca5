/**
 * Readiness checks: named functions that resolve while a dependency is usable and throw (or
 * reject, or hang past the timeout) while it is not. `Health#readiness()` runs them all at once,
 * each bounded by `HEALTH_CHECK_TIMEOUT`, and concurrent callers share one run.
 */
import type { Logger } from '../core/errors.js';

/** A readiness check: resolves when its dependency is usable; throws or rejects when it is not. */
export type ReadinessCheck = () => unknown;

/** Options of `fluid.health.check()`. */
export interface CheckOptions {
  /**
   * Log when the check starts failing and when it passes again (default true). fw's own checks
   * turn it off where their backends (a Redis cache, the events bus, a database) log each
   * outage themselves; the file cache's check keeps it.
   */
  log?: boolean;
}

/** One check's outcome. */
export interface CheckResult {
  /** `ok`, `failed` (threw or rejected) or `timeout` (no answer within `HEALTH_CHECK_TIMEOUT`). */
  readonly state: 'ok' | 'failed' | 'timeout';
  /** How long it took, in milliseconds. */
  readonly ms: number;
  /** Why it failed (`timeout after 2 s`, or the error's message); only when it failed. */
  readonly error?: string;
}

/** The outcome of every check. */
export interface Readiness {
  /** `ready`: every check passed; `unavailable`: one failed; `draining`: the app is shutting down. */
  readonly status: 'ready' | 'unavailable' | 'draining';
  /** Each check by name, with its outcome. */
  readonly checks: Readonly<Record<string, CheckResult>>;
}

const TIMEOUT = Symbol('timeout');

interface Entry {
  readonly run: ReadinessCheck;
  readonly log: boolean;
  failing: boolean;
}

/** The registered checks of one app. */
export class Checks {
  readonly #entries = new Map<string, Entry>();
  readonly #timeoutMs: number;
  readonly #logger: Logger;
  #running: Promise<Record<string, CheckResult>> | undefined;

  constructor(timeoutMs: number, logger: Logger) {
    this.#timeoutMs = timeoutMs;
    this.#logger = logger;
  }

  /** Adds a check under a unique, non-empty name. */
  add(name: string, check: ReadinessCheck, options: CheckOptions = {}): void {
    if (typeof name !== 'string' || name.trim() === '') throw new TypeError('health.check(): a check needs a non-empty name');
    if (typeof check !== 'function') throw new TypeError(`health.check('${name}'): the check is not a function`);
    if (this.#entries.has(name)) throw new TypeError(`health.check('${name}'): a check of that name is already registered`);
    this.#entries.set(name, { run: check, log: options.log !== false, failing: false });
  }

  /** Removes a check; true when there was one. */
  remove(name: string): boolean {
    return this.#entries.delete(name);
  }

  /** The names of the registered checks. */
  get names(): string[] {
    return [...this.#entries.keys()];
  }

  /** Runs every check (concurrent calls share one run). */
  run(): Promise<Record<string, CheckResult>> {
    this.#running ??= this.#runAll().finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #runAll(): Promise<Record<string, CheckResult>> {
    const entries = [...this.#entries];
    const results = await Promise.all(entries.map(([, entry]) => this.#runOne(entry)));
    const out: Record<string, CheckResult> = {};
    for (const [i, [name, entry]] of entries.entries()) {
      const result = results[i]!;
      out[name] = result;
      const ok = result.state === 'ok';
      if (entry.log && ok === entry.failing) {
        if (ok) this.#logger.info(`health: check '${name}' passes again`);
        else this.#logger.warn(`health: check '${name}' fails; readiness answers 503`, { error: result.error });
      }
      entry.failing = !ok;
    }
    return out;
  }

  async #runOne(entry: Entry): Promise<CheckResult> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<typeof TIMEOUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMEOUT), this.#timeoutMs);
    });
    try {
      const outcome = await Promise.race([Promise.resolve().then(entry.run), timeout]);
      const ms = Math.round(performance.now() - started);
      return outcome === TIMEOUT ? { state: 'timeout', ms, error: `no answer within ${this.#timeoutMs / 1000} s` } : { state: 'ok', ms };
    } catch (error) {
      return { state: 'failed', ms: Math.round(performance.now() - started), error: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
    }
  }
}
