/// <reference path="./npm-package-arg.d.ts" />
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import npa from 'npm-package-arg';
import { CliError } from '../cli/errors.js';
import { checkoutRoot, packageVersion } from '../package-info.js';

/** The package that gives an app the `fw` command (a devDependency of every app). */
export const CLI_PACKAGE = '@fw/cli';
/** The runtime every app depends on. */
export const KERNEL_PACKAGE = '@fw/kernel';

/** The dependency specs the project blueprint writes into `package.json`. */
export interface DependencySpecs {
  /** Spec of `@fw/kernel` (dependencies). */
  kernelSpec: string;
  /** Spec of `@fw/cli` (devDependencies). */
  cliSpec: string;
}

/** How a new project chooses its fw specs (flags of `create-fw-app` / `fw create project`). */
export interface SpecOptions {
  /** `--kernel <spec>`: an explicit npm spec of `@fw/kernel` (wins over everything). */
  kernel?: string;
  /**
   * `--local`: link `@fw/kernel` and `@fw/cli` from the fw checkout this command runs from
   * (`file:` specs), for developing fw itself. An error outside a checkout.
   */
  local?: boolean;
}

/**
 * `--kernel <spec>` checked as npm itself will read it (npm's own parser, npm-package-arg), so a
 * spec npm refuses stops the command before it writes anything, not at the install. Returns the
 * spec without surrounding spaces. Throws a {@link CliError} naming the flag and the value.
 */
export function checkKernelSpec(spec: string, flag = '--kernel'): string {
  const accepted =
    `expected an npm spec of ${KERNEL_PACKAGE} as "npm install ${KERNEL_PACKAGE}@<spec>" takes it: a version (0.1.0), a range (^0.1.0), ` +
    'a dist-tag (latest, next), a file: path (file:../fw/runtime-kernel), a git spec (github:owner/repo#ref) or a tarball URL';
  const trimmed = spec.trim();
  if (trimmed === '') throw new CliError(`${flag}: got an empty value; ${accepted}.`);
  try {
    npa.resolve(KERNEL_PACKAGE, trimmed);
  } catch (error) {
    const reason = error instanceof Error ? ` (npm: ${error.message})` : '';
    throw new CliError(`${flag}: got ${JSON.stringify(spec)}, which npm cannot install${reason}; ${accepted}.`);
  }
  return trimmed;
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

/**
 * The specs for a new project. By default the released versions with caret ranges
 * (`^<fw version>`), wherever the command runs from; `file:` paths into the checkout only with
 * `local`, and `kernel` as given.
 */
export function defaultSpecs(projectRoot: string, options: SpecOptions = {}): DependencySpecs {
  const version = `^${packageVersion()}`;
  let specs: DependencySpecs = { kernelSpec: version, cliSpec: version };
  if (options.local) {
    const checkout = checkoutRoot();
    if (checkout === undefined) {
      throw new CliError('--local links fw from the checkout it runs from, but this fw is an installed package; drop --local to use the released versions.');
    }
    const fileSpec = (target: string): string => `file:${toPosix(path.relative(projectRoot, target)) || '.'}`;
    specs = { kernelSpec: fileSpec(path.join(checkout, 'runtime-kernel')), cliSpec: fileSpec(path.join(checkout, 'generators')) };
  }
  if (options.kernel !== undefined) specs.kernelSpec = options.kernel;
  return specs;
}

/**
 * The specs of an existing project: what its `package.json` says now (so `fw generate` never
 * rewrites a `--kernel`/`--local` choice or an upgrade you made), falling back to {@link defaultSpecs}.
 */
export async function projectSpecs(projectRoot: string): Promise<DependencySpecs> {
  const fallback = defaultSpecs(projectRoot);
  let pkg: { dependencies?: Record<string, unknown>; devDependencies?: Record<string, unknown> };
  try {
    pkg = JSON.parse(await readFile(path.join(projectRoot, 'package.json'), 'utf8')) as typeof pkg;
  } catch {
    return fallback;
  }
  const kernel = pkg.dependencies?.[KERNEL_PACKAGE];
  const cli = pkg.devDependencies?.[CLI_PACKAGE];
  return {
    kernelSpec: typeof kernel === 'string' ? kernel : fallback.kernelSpec,
    cliSpec: typeof cli === 'string' ? cli : fallback.cliSpec,
  };
}
