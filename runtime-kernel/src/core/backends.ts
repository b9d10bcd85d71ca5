/**
 * The startup line that says where each plugin keeps its shared state, and the scale-out
 * warnings: a backend kept per process (a `memory` cache, in-process rate-limit counters,
 * events without a Redis bus) behaves differently as soon as several processes serve the app,
 * and a per-host one (the `file` cache) as soon as several hosts do, without any error. The
 * number of processes is `--workers` × `FW_INSTANCES` (the hosts or containers an operator
 * declares).
 */
import type { FluidApp } from './context.js';
import type { Backend } from './plugin.js';

/** Prints `fw: backends: ...` and logs one warning per backend the deployment outgrows. Returns the backends. */
export function reportBackends(fluid: FluidApp, options: { workers: number; print: (line: string) => void }): Backend[] {
  const backends = [...fluid.plugins.values()].flatMap((plugin) => plugin.backends?.(fluid) ?? []);
  if (backends.length === 0) return backends;
  const scope = { process: 'this process', host: 'this host', shared: 'shared' } as const;
  options.print(`fw: backends: ${backends.map((b) => `${b.name} ${b.kind} (${scope[b.scope]})`).join(', ')}`);
  const instances = fluid.config.FW_INSTANCES;
  for (const backend of backends) {
    const outgrown =
      (backend.scope === 'process' && options.workers * instances > 1) || (backend.scope === 'host' && instances > 1);
    if (!outgrown) continue;
    const deployment = [options.workers > 1 ? `${options.workers} worker processes` : '', instances > 1 ? `FW_INSTANCES=${instances} hosts` : '']
      .filter(Boolean)
      .join(' on ');
    fluid.logger.warn(
      `SCALE-OUT: the ${backend.name} backend (${backend.kind}) is per ${backend.scope}, but ${deployment} serve this app: ` +
        `${backend.breaks}. Fix: ${backend.fix}.`,
      { backend: backend.name, kind: backend.kind, scope: backend.scope, workers: options.workers, instances },
    );
  }
  return backends;
}
