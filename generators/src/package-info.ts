import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Absolute path of the package this code runs from: `@fw/cli` (`generators/`, whose `src/` and
 * `dist/` sit one level down) or the `create-fw-app` bundle (`dist/index.js`, one level down too).
 */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The fields of the running package's own package.json that the generators read. */
export interface OwnPackageJson {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

let own: OwnPackageJson | undefined;

/** The running package's own package.json (`@fw/cli` or `create-fw-app`; read once). */
export function ownPackageJson(): OwnPackageJson {
  own ??= JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as OwnPackageJson;
  return own;
}

/** The fw version (every fw package is released at the same version), from package.json. */
export function packageVersion(): string {
  const version = ownPackageJson().version;
  return typeof version === 'string' ? version : '0.0.0';
}

/** The name of the private workspace root of the fw repository. */
export const MONOREPO_NAME = 'fw-monorepo';

let checkout: string | null | undefined;

/**
 * The fw checkout this code runs from (the folder whose package.json is the private
 * `fw-monorepo` workspace root), or `undefined` when it runs from an installed package. Looked
 * for at most two levels above {@link PACKAGE_ROOT} (`generators/` and `generators/create-fw-app/`).
 */
export function checkoutRoot(): string | undefined {
  if (checkout === undefined) {
    checkout = null;
    for (const dir of [path.dirname(PACKAGE_ROOT), path.dirname(path.dirname(PACKAGE_ROOT))]) {
      try {
        const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown };
        if (pkg.name === MONOREPO_NAME && existsSync(path.join(dir, 'blueprints'))) {
          checkout = dir;
          break;
        }
      } catch {
        // no package.json there: keep looking
      }
    }
  }
  return checkout ?? undefined;
}

/**
 * Absolute path of `blueprints/<kind>`: the checkout's own `blueprints/` when running from one
 * (so a blueprint edit needs no rebuild), else the copy the package ships.
 */
export function blueprintDir(kind: string): string {
  return path.join(checkoutRoot() ?? PACKAGE_ROOT, 'blueprints', kind);
}

/**
 * Absolute path of fw's documentation (`docs/`, one Markdown page per topic): the checkout's own
 * when running from one, else the copy `@fw/cli` ships (`fw docs` prints its pages).
 */
export function docsDir(): string {
  return path.join(checkoutRoot() ?? PACKAGE_ROOT, 'docs');
}
