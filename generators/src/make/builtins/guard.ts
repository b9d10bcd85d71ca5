import { nameQuestion, type Builtin } from '../builtin.js';
import { MakeError } from '../errors.js';
import { camelCase, invalidName, kebabCase, words } from '../names.js';

/** Role and permission names, as `AUTH_ROLES` / `AUTH_PERMISSIONS` take them. */
const GRANT = /^[A-Za-z][A-Za-z0-9_.:-]*$/;

function grants(value: unknown): string[] {
  return String(value ?? '')
    .split(/[\s,]+/)
    .filter(Boolean);
}

const grantCheck = (what: string) => (value: unknown): true | string => {
  const bad = grants(value).find((g) => !GRANT.test(g));
  return bad === undefined ? true : `"${bad}" is not a ${what} name: a letter, then letters, digits, "_", ".", ":" or "-"`;
};

/** The names of `list` that `fw.json` does not configure, when it configures the key at all. */
function unknown(list: readonly string[], configured: unknown): string[] {
  return Array.isArray(configured) && configured.length > 0 ? list.filter((n) => !configured.includes(n)) : [];
}

const quoted = (list: readonly string[], what: string): string => {
  const names = list.map((n) => `"${n}"`);
  if (names.length <= 1) return names.length === 0 ? '' : `the ${what} ${names[0]}`;
  return `one of the ${what}s ${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
};

/**
 * `fw make guard`: a guard module `fluid/guards/<name>.ts` on `@fw/kernel/auth`'s guard API: a
 * signed-in, verified user holding any of the given roles or permissions (default: the role named
 * like the guard), else 403.
 */
export const guard: Builtin = {
  name: 'guard',
  description: 'a guard in fluid/guards/<name>.ts: any of some roles or permissions (@fw/kernel/auth)',
  examples: ['npx fw make guard editor', 'npx fw make guard can-publish --roles editor,admin --permissions posts:publish'],
  prompts: () => [
    nameQuestion('Guard name', invalidName),
    { type: 'input', name: 'roles', message: 'Roles that pass (comma-separated; none and no permission: the role named like the guard)', default: '', validate: grantCheck('role') },
    { type: 'input', name: 'permissions', message: 'Permissions that pass (comma-separated)', default: '', validate: grantCheck('permission') },
  ],
  async actions(answers, fw) {
    const name = String(answers.name);
    const permissions = grants(answers.permissions);
    const given = grants(answers.roles);
    const roles = given.length === 0 && permissions.length === 0 ? [kebabCase(name)] : given;
    const config = fw.config.config as Record<string, unknown>;
    const strays = [...unknown(roles, config.AUTH_ROLES).map((r) => `role "${r}" is not in AUTH_ROLES`), ...unknown(permissions, config.AUTH_PERMISSIONS).map((p) => `permission "${p}" is not in AUTH_PERMISSIONS`)];
    if (strays.length > 0) throw new MakeError(`fw make guard: ${strays.join('; ')} (fw.json "config")`);
    const id = camelCase(name);
    const who = [quoted(roles, 'role'), quoted(permissions, 'permission')].filter(Boolean).join(' or ');
    return [
      {
        type: 'fw:add',
        path: `fluid/guards/${kebabCase(name)}.ts`,
        blueprint: 'guard/guard.ts.hbs',
        data: { id, roles, permissions, who, code: words(name).join('_').toUpperCase().concat('_REQUIRED'), message: `${who.charAt(0).toUpperCase()}${who.slice(1)} is required` },
      },
    ];
  },
};
