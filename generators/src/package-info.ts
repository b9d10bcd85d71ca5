import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the create-fw-app package root (holds `blueprints/` and `package.json`). */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The fields of create-fw-app's own package.json that the generators read. */
export interface OwnPackageJson {
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

let own: OwnPackageJson | undefined;

/** create-fw-app's own package.json (read once). */
export function ownPackageJson(): OwnPackageJson {
  own ??= JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as OwnPackageJson;
  return own;
}

/** The create-fw-app version, from its package.json. */
export function packageVersion(): string {
  const version = ownPackageJson().version;
  return typeof version === 'string' ? version : '0.0.0';
}

/**
 * The fw checkout this CLI runs from, or `undefined` when it runs from an installed package.
 * A checkout is recognised by `runtime-kernel/package.json` next to the package root.
 */
export function checkoutRoot(): string | undefined {
  return existsSync(path.join(PACKAGE_ROOT, 'runtime-kernel', 'package.json')) ? PACKAGE_ROOT : undefined;
}

/** Absolute path of `blueprints/<kind>`. */
export function blueprintDir(kind: string): string {
  return path.join(PACKAGE_ROOT, 'blueprints', kind);
}
