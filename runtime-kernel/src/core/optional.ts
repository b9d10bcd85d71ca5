/**
 * Optional packages: what a subsystem needs only when the app's config uses it (Vite, Tailwind,
 * the Prisma adapters, nodemailer, ioredis, ...). They are not dependencies of the kernel. Two
 * lists in `@fw/kernel`'s package.json name them with the version fw is tested with:
 * - `peerDependencies` (optional, `peerDependenciesMeta`): what production may load (`^10.6.0` →
 *   `10.6.0`), so npm checks an installed version against fw's range;
 * - `fwDevPackages`: what only development and builds load (Vite and its dev proxy). They are not
 *   optional peers on purpose: the app's dev tree holds Vite anyway (vitest depends on it), and npm
 *   keeps a package that is both a dev dependency and an optional peer of a production dependency
 *   ("devOptional") in `npm ci --omit=dev`, which would put Vite and tsx into every production install.
 *
 * Each is loaded on first use, resolved from the app's root (its own `node_modules`, where
 * `npm install` put it), else from the kernel's own location. A missing one fails with a
 * `MissingPackageError` naming the package, the feature that needs it and the command that adds it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FrameworkException } from './errors.js';
import { KERNEL_DIR } from './static.js';

/** Who needs an optional package: the app's root and the feature (config key or API) that uses it. */
export interface OptionalUse {
  /** The app's project root (resolution starts there); default: the kernel's own location only. */
  readonly root?: string | undefined;
  /** What needs it, e.g. `CACHE_TYPE=redis` or `mail (fluid.mail, MAIL_*)`. */
  readonly feature: string;
}

/** Optional packages the running feature needs are not installed (all of them named at once). */
export class MissingPackageError extends FrameworkException {
  /** Always `'MissingPackageError'`. */
  override name = 'MissingPackageError';
  /** The (first) npm package name, e.g. `nodemailer`. */
  readonly packageName: string;
  /** Every missing package of the feature, e.g. `['@tailwindcss/node', '@tailwindcss/oxide']`. */
  readonly packageNames: readonly string[];
  /** What needs it. */
  readonly feature: string;
  /** The command that adds them all, e.g. `npm install nodemailer@10.6.0`. */
  readonly command: string;

  constructor(packageNames: string | readonly string[], use: OptionalUse, cause?: unknown) {
    const names = typeof packageNames === 'string' ? [packageNames] : [...packageNames];
    const command = `npm install ${names.map((name) => `${name}@${optionalPackages()[name] ?? 'latest'}`).join(' ')}`;
    const where = use.root ? ` in ${use.root}` : '';
    const what = names.length === 1 ? `The npm package '${names[0]}' is` : `The npm packages ${names.map((n) => `'${n}'`).join(', ')} are`;
    super(`${what} not installed${where}; ${use.feature} needs ${names.length === 1 ? 'it' : 'them'}. Add ${names.length === 1 ? 'it' : 'them'} with: ${command}`, { cause });
    this.packageName = names[0]!;
    this.packageNames = names;
    this.feature = use.feature;
    this.command = command;
  }
}

let versions: Readonly<Record<string, string>> | undefined;

/**
 * Every optional package of the kernel and the version fw is tested with (read from the kernel's
 * package.json `peerDependencies` and `fwDevPackages`; a range `^1.2.3` gives `1.2.3`).
 */
export function optionalPackages(): Readonly<Record<string, string>> {
  if (!versions) {
    const pkg = JSON.parse(readFileSync(join(KERNEL_DIR, 'package.json'), 'utf8')) as {
      peerDependencies?: Record<string, string>;
      fwDevPackages?: Record<string, string>;
    };
    const all = { ...pkg.peerDependencies, ...pkg.fwDevPackages };
    versions = Object.fromEntries(Object.entries(all).map(([name, range]) => [name, range.replace(/^[\^~=]/, '')]));
  }
  return versions;
}

const kernelRequire = createRequire(import.meta.url);

/** The package's module for `require`, from the app's root, else the kernel's location. */
function resolveRequire(name: string, use: OptionalUse): string {
  if (use.root) {
    try {
      return createRequire(resolve(use.root, 'package.json')).resolve(name);
    } catch {
      // not in the app: try next to the kernel
    }
  }
  try {
    return kernelRequire.resolve(name);
  } catch (err) {
    throw new MissingPackageError(packageOf(name), use, err);
  }
}

/**
 * Loads an optional CommonJS package synchronously (for constructors that cannot wait, such as
 * a Redis client). Throws `MissingPackageError` when it is not installed.
 */
export function requireOptional<T>(name: string, use: OptionalUse): T {
  return kernelRequire(resolveRequire(name, use)) as T;
}

/** The file a package subpath resolves to (e.g. `tailwindcss/index.css`). Throws `MissingPackageError`. */
export function resolveOptional(name: string, use: OptionalUse): string {
  return resolveRequire(name, use);
}

/**
 * Throws `MissingPackageError` unless every package resolves (from the app's root, else the
 * kernel's location), naming all the missing ones in one install command.
 */
export function assertInstalled(names: string | readonly string[], use: OptionalUse): void {
  const parent = use.root ? pathToFileURL(resolve(use.root, 'package.json')).href : undefined;
  const missing = (typeof names === 'string' ? [names] : names).filter(
    (name) => !(parent && resolvesFrom(name, parent)) && !resolvesFrom(name, import.meta.url),
  );
  if (missing.length > 0) throw new MissingPackageError(missing.map(packageOf), use);
}

// ESM resolution from any parent, loaded on first use (require of an ES module, Node >= 22.12):
// only apps that load an optional ES package pay for it, not every boot.
let resolveImport: typeof import('import-meta-resolve').resolve | undefined;

function resolvesFrom(name: string, parent: string): string | undefined {
  resolveImport ??= (createRequire(import.meta.url)('import-meta-resolve') as typeof import('import-meta-resolve')).resolve;
  try {
    return resolveImport(name, parent);
  } catch {
    return undefined;
  }
}

/**
 * Imports an optional package (ESM resolution, `import` conditions). Throws `MissingPackageError`
 * when it is not installed; any other failure to load it propagates as it is.
 */
export async function importOptional<T>(name: string, use: OptionalUse): Promise<T> {
  const own = resolvesFrom(name, import.meta.url);
  const fromRoot = use.root ? resolvesFrom(name, pathToFileURL(resolve(use.root, 'package.json')).href) : undefined;
  // The kernel's own copy by its bare name (one module instance with any other import of it),
  // unless the app has a different copy of its own.
  if (fromRoot && fromRoot !== own) return (await import(fromRoot)) as T;
  if (own) return (await import(name)) as T;
  throw new MissingPackageError(packageOf(name), use);
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}
