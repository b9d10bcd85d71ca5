/**
 * What a changed file means to the dev loop (`fw dev`, `fw run --watch`). One rule table, so the
 * watcher, the docs (docs/dev.md) and the tests agree:
 *
 * | Change | Effect |
 * |---|---|
 * | `fw.json`, `.env`, `app_configs/*.ini` | restart the server |
 * | `package-lock.json` (`npm install` changed the installed packages, e.g. the one an error asked for) | restart |
 * | server code: anything under `fluid/` or `additives/<name>/` not listed below (`*.ts`, `manifest.json`, locales) | restart |
 * | a migration added or removed: `prisma/<bind>/migrations/<name>/migration.sql` | `migration`: restart, once the bind's client is regenerated (runner.ts) |
 * | the generated Prisma client: the `output` folder of a `prisma/<bind>/schema.prisma` generator (`generated/prisma/<bind>/`) | `client`: restart once it settles |
 * | `prisma/<bind>/schema.prisma` | `schema`: no restart; the client folders are read again, and a client whose `output` moved is generated there (runner.ts) |
 * | `templates/**` of the app or an Additive | `template`: the app re-reads it; the browser reloads (Tailwind recompiles first) |
 * | `static/**` of the app or an Additive | `static`: the browser reloads (a stylesheet is swapped in place) |
 * | a frontend workspace (`fluid/frontend/**`, `additives/<name>/frontend/**`) | nothing here: Vite's HMR has it |
 * | compiled output (`dist/`, `tailwind.css`), `.fw/`, `.git/`, `node_modules/`, tests, temp, editor and `sed -i` files | ignored |
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What to do about one changed file: `restart`, `migration` and `client` all restart the app
 * (the runner waits for a migration's client, {@link prismaClientDirs}, so one `fw migrate dev` is
 * one restart).
 */
export type ChangeKind = 'restart' | 'migration' | 'client' | 'schema' | 'template' | 'static' | 'frontend' | 'ignore';

/** Folders never looked into (at any depth). */
const IGNORED_DIRS: ReadonlySet<string> = new Set(['node_modules', '.git', '.fw', 'dist', 'coverage', '.vite']);
/** Compiled files the server itself writes (Tailwind output): watching them would restart forever. */
const COMPILED_FILES: ReadonlySet<string> = new Set(['tailwind.css']);

/** Temp files of fw's atomic writes, editors' swap and backup files, OS litter. */
function isTempName(name: string): boolean {
  return (
    name.includes('.fw-tmp-') ||
    name.endsWith('~') ||
    /\.(?:swp|swx|swo|tmp|bak)$/.test(name) ||
    name.startsWith('.#') ||
    name === '4913' || // vim's write probe
    name === '.DS_Store'
  );
}

/**
 * The file `sed -i` writes the new text to before renaming it over the edited file: GNU sed's
 * `sedXXXXXX` (six random letters and digits) beside it, BSD sed's `.!<pid>!<name>`. Only files:
 * a folder of that name is the user's.
 */
function isSedTemp(name: string): boolean {
  return /^sed[A-Za-z0-9]{6}$/.test(name) || /^\.![0-9]+!./.test(name);
}

/** A test file: it runs under the test runner, never in the server. */
function isTest(segments: readonly string[]): boolean {
  const name = segments[segments.length - 1] ?? '';
  return /\.(?:test|spec)\.[cm]?[jt]sx?$/.test(name) || segments.includes('test') || segments.includes('tests') || segments.includes('__tests__');
}

/**
 * Classifies a path relative to the project root (either separator). `isDir` says the path is a
 * folder (the watcher asks before descending, so ignored folders are never watched). `clients`:
 * the project-relative folders of the generated Prisma clients ({@link prismaClientDirs}); a file
 * in one is `client`, and the folders leading to one are watched.
 */
export function classifyChange(rel: string, isDir = false, clients: readonly string[] = []): ChangeKind {
  const segments = rel.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  if (segments.length === 0) return isDir ? 'restart' : 'ignore'; // the root itself
  const name = segments[segments.length - 1]!;
  if (segments.some((s) => IGNORED_DIRS.has(s)) || isTempName(name) || (!isDir && isSedTemp(name))) return 'ignore';
  const posix = segments.join('/');
  for (const dir of clients) {
    if (posix === dir || posix.startsWith(`${dir}/`)) return 'client';
    if (isDir && dir.startsWith(`${posix}/`)) return 'client'; // on the way to a client folder
  }
  const [top, ...rest] = segments;
  if (segments.length === 1) {
    // npm writes the lock once it has installed: the app restarts on the packages it now has (an
    // app that stopped on a MissingPackageError comes back after the `npm install` it named).
    if (top === 'fw.json' || top === '.env' || top === 'package-lock.json') return 'restart';
    if (isDir && (top === 'fluid' || top === 'additives' || top === 'app_configs' || top === 'prisma')) return 'restart';
    return 'ignore';
  }
  if (top === 'app_configs') return rest.length === 1 && (isDir || name.endsWith('.ini')) ? 'restart' : 'ignore';
  if (top === 'prisma') {
    if (!isDir && rest.length === 2 && rest[1] === 'schema.prisma') return 'schema';
    return migrationChange(rest, isDir) ? 'migration' : 'ignore';
  }
  // The surface folder: fluid/ or additives/<name>/; `inner` is the path inside it.
  let inner: string[];
  if (top === 'fluid') inner = rest;
  else if (top === 'additives') inner = rest.slice(1);
  else return 'ignore';
  if (inner.length === 0) return 'restart'; // additives/<name> itself, or a file directly in additives/
  const area = inner[0];
  if (area === 'frontend') return 'frontend';
  if (isTest(inner)) return 'ignore';
  if (area === 'templates') return 'template';
  if (area === 'static') return !isDir && COMPILED_FILES.has(name) && inner.length === 2 ? 'ignore' : 'static';
  if (name.startsWith('.') && !isDir) return 'ignore';
  return 'restart';
}

/**
 * True for what makes a migration of `prisma/<bind>/migrations/` (`rest`: the path under
 * `prisma/`): its `migration.sql`, and the folders on the way to it. The app checks once at
 * startup which shipped migrations its databases lack, and keeps the answer once they are all
 * applied (readiness, runtime-kernel/src/db/migrations.ts); a running app does not look at the
 * folder again. So a migration added while `fw dev` runs (`fw migrate dev` in another terminal, a
 * git pull) restarts the app, like any other change to what the server ships: the new app sees it
 * and fails readiness until it is applied. `prisma.config.ts` and `migration_lock.toml` change
 * nothing the running app reads; nor does a schema (`schema`: only its generators' `output` matters
 * to the dev loop).
 */
function migrationChange(rest: readonly string[], isDir: boolean): boolean {
  if (isDir) return rest.length === 1 || rest[1] === 'migrations';
  return rest.length === 4 && rest[1] === 'migrations' && rest[3] === 'migration.sql';
}

/** True when a folder need not be watched at all (nothing under it can matter). */
export function ignoredDir(rel: string, clients: readonly string[] = []): boolean {
  const kind = classifyChange(rel, true, clients);
  return kind === 'ignore' || kind === 'frontend';
}

/**
 * The folders the Prisma clients of the project are generated into, project-relative (posix):
 * the `output` of every `generator` block of `prisma/<bind>/schema.prisma`, resolved from the
 * schema's folder as Prisma does (`../../generated/prisma/<bind>` for fw's schemas). `fw migrate
 * dev` writes a migration before it regenerates the client, so the dev loop watches these too: an
 * app restarted on the migration alone would load the old client. Folders outside the project,
 * or under `node_modules/` (a generator without `output`), are left out: they are never watched.
 */
export function prismaClientDirs(root: string): string[] {
  let binds: string[];
  try {
    binds = readdirSync(path.join(root, 'prisma'), { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? [entry.name] : []));
  } catch {
    return [];
  }
  const dirs = new Set<string>();
  for (const bind of binds) {
    let schema: string;
    try {
      schema = readFileSync(path.join(root, 'prisma', bind, 'schema.prisma'), 'utf8');
    } catch {
      continue;
    }
    for (const block of schema.matchAll(/^\s*generator\s+\w+\s*\{([^}]*)\}/gm)) {
      const output = /^\s*output\s*=\s*"([^"]+)"/m.exec(block[1]!)?.[1];
      if (!output) continue;
      const rel = relPath(root, path.resolve(root, 'prisma', bind, output));
      if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) && !rel.split('/').some((s) => IGNORED_DIRS.has(s))) dirs.add(rel);
    }
  }
  return [...dirs].sort();
}

/** The project-relative posix path of an absolute path under `root`. */
export function relPath(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}
