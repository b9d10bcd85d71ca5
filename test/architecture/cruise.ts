/**
 * Import rules checked with dependency-cruiser: no import cycle (type-only imports count, so the
 * TypeScript sources are read before compilation), and named folders that must not import other
 * folders (the kernel core imports no plugin).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

/** A rule: nothing under `from` may import anything under `to` (folders relative to the cruised root). */
export interface Boundary {
  readonly name: string;
  readonly from: string;
  readonly to: string;
}

/** One broken rule. */
export interface Violation {
  readonly rule: string;
  readonly from: string;
  readonly to: string;
  /** For a cycle: the modules around it, starting and ending at `from`. */
  readonly cycle: readonly string[];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Cruises every TypeScript module under `dir` (relative to `cwd`), with `tsconfig` (relative to
 * `cwd`) for module resolution, and answers every cycle and every boundary crossed.
 */
export async function importViolations(
  dir: string,
  options: { cwd: string; tsconfig: string; boundaries?: readonly Boundary[] },
): Promise<Violation[]> {
  if (!existsSync(path.join(options.cwd, dir))) throw new Error(`importViolations: ${dir} does not exist in ${options.cwd}`);
  const base = `^${escape(dir.replace(/\/?$/, '/'))}`;
  const previous = process.cwd();
  process.chdir(options.cwd); // dependency-cruiser names modules relative to the working directory
  let result: ICruiseResult;
  try {
    const reported = await cruise(
      [dir],
      {
        tsPreCompilationDeps: true,
        tsConfig: { fileName: options.tsconfig },
        doNotFollow: { path: 'node_modules' },
        exclude: { path: '\\.d\\.ts$' },
        validate: true,
        ruleSet: {
          forbidden: [
            { name: 'no-circular', severity: 'error', from: { path: base }, to: { circular: true } },
            ...(options.boundaries ?? []).map((b) => ({
              name: b.name,
              severity: 'error' as const,
              from: { path: base + escape(b.from.replace(/\/?$/, '/')) },
              to: { path: base + escape(b.to.replace(/\/?$/, '/')) },
            })),
          ],
        },
      },
      undefined,
      { tsConfig: extractTSConfig(options.tsconfig) },
    );
    result = reported.output as ICruiseResult;
  } finally {
    process.chdir(previous);
  }
  return (result.summary.violations ?? []).map((v) => ({
    rule: v.rule.name,
    from: v.from,
    to: v.to,
    cycle: v.cycle ? [v.from, ...v.cycle.map((c) => (typeof c === 'string' ? c : c.name))] : [],
  }));
}
