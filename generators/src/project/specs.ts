import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkoutRoot, packageVersion } from '../package-info.js';

/** The dependency specs the project blueprint writes into `package.json`. */
export interface DependencySpecs {
  /** Spec of `@fw/kernel` (dependencies). */
  kernelSpec: string;
  /** Spec of `create-fw-app` (devDependencies). */
  cliSpec: string;
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

/** The specs for a new project: a `file:` path into this checkout when run from one, else `^<version>`. */
export function defaultSpecs(projectRoot: string, kernel?: string): DependencySpecs {
  const checkout = checkoutRoot();
  const fileSpec = (target: string): string => `file:${toPosix(path.relative(projectRoot, target)) || '.'}`;
  const version = `^${packageVersion()}`;
  return {
    kernelSpec: kernel ?? (checkout ? fileSpec(path.join(checkout, 'runtime-kernel')) : version),
    cliSpec: checkout ? fileSpec(checkout) : version,
  };
}

/**
 * The specs of an existing project: what its `package.json` says now (so `fw generate` never
 * rewrites a `--kernel` choice or an upgrade you made), falling back to {@link defaultSpecs}.
 */
export async function projectSpecs(projectRoot: string): Promise<DependencySpecs> {
  const fallback = defaultSpecs(projectRoot);
  let pkg: { dependencies?: Record<string, unknown>; devDependencies?: Record<string, unknown> };
  try {
    pkg = JSON.parse(await readFile(path.join(projectRoot, 'package.json'), 'utf8')) as typeof pkg;
  } catch {
    return fallback;
  }
  const kernel = pkg.dependencies?.['@fw/kernel'];
  const cli = pkg.devDependencies?.['create-fw-app'];
  return {
    kernelSpec: typeof kernel === 'string' ? kernel : fallback.kernelSpec,
    cliSpec: typeof cli === 'string' ? cli : fallback.cliSpec,
  };
}
