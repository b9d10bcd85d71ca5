/**
 * Renders `fluid/guards.ts`, the project's guard chains, from `AUTH_ROLES` and
 * `AUTH_PERMISSIONS`: a typed export per role (`requireEditor = requireRole('editor')`) and per
 * permission (`requirePostsWritePermission = requirePermission('posts:write')`), `Role` and
 * `Permission` union types, and `roleGuard(role)` / `permissionGuard(permission)`.
 *
 * Pure: the same config gives the same bytes, so the file regenerates like every generated file.
 */
import { blueprintTemplate } from '../render/blueprint.js';

/** Input of {@link renderAuthGuards}: the validated config lists. */
export interface AuthGuardsOptions {
  /** `AUTH_ROLES`. */
  roles: readonly string[];
  /** `AUTH_PERMISSIONS`. */
  permissions: readonly string[];
  /** Folder of the `auth` blueprint (default: `blueprints/auth` of this package). */
  blueprint?: string;
}

/** The generated module's path, relative to the project root. */
export const GUARDS_PATH = 'fluid/guards.ts';

/** Names the module already exports (re-exported from the kernel or declared by it). */
const TAKEN = new Set(['requireUser', 'EmailVerifiedGate', 'require2fa', 'requireAdmin', 'requireRole', 'requirePermission', 'roleGuard', 'permissionGuard', 'ROLES', 'PERMISSIONS']);
const NAME = /^[A-Za-z][A-Za-z0-9_.:-]*$/;

/** `posts:write` → `PostsWrite`, `content-editor` → `ContentEditor`. */
export function pascal(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** An error in `AUTH_ROLES` / `AUTH_PERMISSIONS`, naming the key path. */
export class AuthGuardsError extends Error {
  override name = 'AuthGuardsError';
}

/** Renders `fluid/guards.ts`; throws `AuthGuardsError` naming the config entry on a bad or clashing name. */
export function renderAuthGuards(options: AuthGuardsOptions): Map<string, string> {
  const used = new Map<string, string>();
  const entries = (list: readonly string[], key: 'AUTH_ROLES' | 'AUTH_PERMISSIONS', ident: (n: string) => string) =>
    list.map((name, i) => {
      const where = `config.${key}[${i}]`;
      if (typeof name !== 'string' || !NAME.test(name)) {
        throw new AuthGuardsError(`fw.json ${where}: ${JSON.stringify(name)} is not a name matching ${NAME.source}`);
      }
      const id = ident(name);
      if (TAKEN.has(id)) throw new AuthGuardsError(`fw.json ${where}: '${name}' would generate ${id}, which the guards module already exports; rename it`);
      const clash = used.get(id);
      if (clash) throw new AuthGuardsError(`fw.json ${where}: '${name}' and ${clash} would both generate ${id}; rename one`);
      used.set(id, `${where} '${name}'`);
      return { name, ident: id };
    });
  const roles = entries(options.roles, 'AUTH_ROLES', (n) => `require${pascal(n)}`);
  const permissions = entries(options.permissions, 'AUTH_PERMISSIONS', (n) => `require${pascal(n)}Permission`);
  const template = blueprintTemplate('auth', 'fluid/guards.ts.hbs', options.blueprint);
  return new Map([[GUARDS_PATH, template({ roles, permissions })]]);
}
