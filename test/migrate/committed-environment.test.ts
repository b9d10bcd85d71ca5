/**
 * The Prisma environments that `fw migrate init` and `fw generate` render are committed and shared,
 * so they follow fw.json's binds, while the app (and `fw migrate`) may get other binds on one
 * machine: its `app_configs/<app>.ini` (not committed), `.env` or environment. Where the two
 * disagree, `fw migrate` refuses before Prisma runs for any bind, naming the bind, where its URL
 * was set, both providers and the way out; `fw generate` and `fw migrate init` warn and still
 * render fw.json's environments. Through the real commands, in a project made by
 * `fw create project` + `fw migrate init`, with the real Prisma CLI where a bind is migrated.
 */
import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run as fwCli } from '../../generators/src/commands/index.js';
import type { CommandIO } from '../../generators/src/cli/io.js';
import { editConfig } from '../generators/project-helpers.js';
import { REPO_ROOT, usePrismaOffline } from '../support/prisma.js';

const INI = 'app_configs/notes.ini';
// Nothing listens here: every check must come before a connection.
const POSTGRES = 'postgresql://me:secret-pw@127.0.0.1:9/notes_dev';
const SQLITE_MIGRATION = 'CREATE TABLE "Note" ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "text" TEXT NOT NULL);\n';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  /** The message of the error the command ended with (`error: <message>` on a terminal). */
  error?: string;
}

/** Runs `fw <args>` in `root` with an environment holding none of fw's database keys (plus `env`). */
async function fw(root: string, args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const base = { ...process.env };
  for (const key of Object.keys(base)) if (/^(DATABASE_|SQLALCHEMY_|SECRET_KEY|FW_APP$|FW_ENV$)/.test(key)) delete base[key];
  let stdout = '';
  let stderr = '';
  const io: CommandIO = {
    cwd: root,
    stdin: new PassThrough(),
    stdout: new PassThrough().on('data', (chunk: Buffer) => (stdout += chunk.toString())),
    stderr: new PassThrough().on('data', (chunk: Buffer) => (stderr += chunk.toString())),
    env: { ...base, ...env },
  };
  try {
    return { code: await fwCli(args, io), stdout, stderr };
  } catch (error) {
    return { code: 1, stdout, stderr, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * A project made by `fw create project notes` and `fw migrate init`, inside the checkout (under
 * `.tmp/db-tests/`) so that `@fw/kernel`, `prisma` and `@prisma/client` resolve from its
 * node_modules as they would from the project's own after `npm install`.
 */
async function migrateProject(): Promise<string> {
  const parent = path.join(REPO_ROOT, '.tmp', 'db-tests');
  await mkdir(parent, { recursive: true });
  const cwd = await mkdtemp(path.join(parent, 'committed-'));
  made.push(cwd);
  const created = await fw(cwd, ['create', 'project', 'notes', '--yes']);
  if (created.code !== 0) throw new Error(`create project failed: ${created.error ?? created.stdout}`);
  const root = path.join(cwd, 'notes');
  const init = await fw(root, ['migrate', 'init', '--no-install']);
  if (init.code !== 0) throw new Error(`fw migrate init failed: ${init.error ?? init.stdout}`);
  return root;
}

/** Appends a line to the project's ini (which `fw create project` wrote); returns its line number. */
async function appendIni(root: string, line: string): Promise<number> {
  const file = path.join(root, INI);
  const text = await readFile(file, 'utf8');
  await appendFile(file, `${text.endsWith('\n') ? '' : '\n'}${line}\n`);
  return (await readFile(file, 'utf8')).trimEnd().split('\n').length;
}

const made: string[] = [];
beforeAll(() => {
  usePrismaOffline();
});
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

describe('a bind named only in this machine\'s ini', () => {
  test('every fw migrate action refuses before Prisma runs for any bind; fw generate warns; adding the bind to fw.json is the way out', async () => {
    const root = await migrateProject();
    const line = await appendIni(root, 'DATABASE_BINDS = {"main": "file:./var/local.db", "reports": "file:./var/reports.db"}');
    const missing =
      `bind "reports" has no migration environment (prisma/reports/): it is set in ${INI}:${line}, not in fw.json; ` +
      'fw renders the environments, which are committed and shared, from the binds of fw.json only. ' +
      `Add "reports" to DATABASE_BINDS in fw.json with the URL the project should use by default (${INI}:${line} still wins on this machine), ` +
      'then run "npx fw generate"';
    for (const action of [['deploy'], ['status'], ['diff'], ['dev', '--force'], ['reset', '--force'], ['status', '--bind', 'reports']]) {
      const ran = await fw(root, ['migrate', ...action]);
      expect(ran.error, action.join(' ')).toBe(missing);
    }
    // Not even bind "main", whose environment is fine, was migrated first.
    expect(existsSync(path.join(root, 'var'))).toBe(false);
    // Asked for alone, it is.
    const main = await fw(root, ['migrate', 'deploy', '--bind', 'main']);
    expect([main.code, main.error]).toEqual([0, undefined]);
    expect(existsSync(path.join(root, 'var/local.db'))).toBe(true);

    const generate = await fw(root, ['generate', '--no-install']);
    expect(generate.code).toBe(0);
    expect(generate.stderr).toBe(
      `warning: bind "reports" is set in ${INI}:${line}, not in fw.json, so it gets no migration environment and "fw migrate" cannot migrate it; ` +
        'fw renders the environments, which are committed and shared, from the binds of fw.json only. ' +
        `Add "reports" to DATABASE_BINDS in fw.json with the URL the project should use by default (${INI}:${line} still wins on this machine), ` +
        'then run "npx fw generate"\n',
    );
    expect(existsSync(path.join(root, 'prisma/reports'))).toBe(false);

    // The way out, as the message says.
    await editConfig(root, (json) => {
      json.config.DATABASE_BINDS = { main: 'file:./var/main.db', reports: 'file:./var/reports.db' };
    });
    const regenerated = await fw(root, ['generate', '--no-install']);
    expect(regenerated).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(path.join(root, 'prisma/reports/prisma.config.ts'))).toBe(true);
    const both = await fw(root, ['migrate', 'deploy']);
    expect([both.code, both.error]).toEqual([0, undefined]);
    expect(existsSync(path.join(root, 'var/reports.db'))).toBe(true);
  });
});

describe('a bind fw.json keeps on SQLite, given a PostgreSQL URL on this machine', () => {
  test('every fw migrate action refuses naming the ini line, both providers and the fix; fw generate and fw migrate init warn and keep the SQLite environment', async () => {
    const root = await migrateProject();
    const migrations = path.join(root, 'prisma/main/migrations');
    await mkdir(path.join(migrations, '20260101000000_init'));
    await writeFile(path.join(migrations, '20260101000000_init/migration.sql'), SQLITE_MIGRATION);
    const line = await appendIni(root, `DATABASE_BINDS = {"main": "${POSTGRES}"}`);
    const mismatch = (origin: string): string =>
      `bind "main": DATABASE_BINDS.main is a postgresql URL (set in ${origin}), but its migration environment ` +
      "(prisma/main/schema.prisma) is for sqlite: Prisma would run sqlite's schema and migrations on a postgresql database. " +
      "The environment follows fw.json's DATABASE_BINDS.main, a sqlite URL, and is committed for everyone: " +
      `on this machine, give the bind a sqlite URL in ${origin}; or, to move the bind to postgresql for everyone, ` +
      'set DATABASE_BINDS.main in fw.json to a postgresql URL and run "npx fw generate" ' +
      '(npx fw docs databases, "Moving a bind to another database")';
    for (const action of [['deploy'], ['status'], ['diff'], ['dev', '--force'], ['reset', '--force']]) {
      const ran = await fw(root, ['migrate', ...action]);
      expect(ran.code, action[0]).toBe(1);
      // Not the committed history's advice (delete the migrations): the history is right for the team.
      expect(ran.error, action[0]).toBe(mismatch(`${INI}:${line}`));
      expect(`${ran.error}${ran.stderr}`).not.toContain('secret-pw');
    }
    // The environment's binds win over the ini, and are named as such.
    const fromEnv = await fw(root, ['migrate', 'status'], { DATABASE_BINDS: JSON.stringify({ main: POSTGRES }) });
    expect(fromEnv.error).toBe(mismatch('environment variable DATABASE_BINDS'));

    const warning = (command: string) =>
      `warning: bind "main": DATABASE_BINDS.main is a postgresql URL on this machine (set in ${INI}:${line}), but its migration environment ` +
      `is rendered for sqlite, so "fw migrate" refuses this bind until they agree. ` +
      "The environment follows fw.json's DATABASE_BINDS.main, a sqlite URL, and is committed for everyone: " +
      `on this machine, give the bind a sqlite URL in ${INI}:${line}; or, to move the bind to postgresql for everyone, ` +
      `set DATABASE_BINDS.main in fw.json to a postgresql URL and run "${command}" ` +
      '(npx fw docs databases, "Moving a bind to another database")\n';
    for (const args of [['generate', '--no-install'], ['migrate', 'init', '--no-install'], ['generate', '--json', '--no-install']]) {
      const ran = await fw(root, args);
      expect(ran.code, args.join(' ')).toBe(0);
      expect(ran.stderr, args.join(' ')).toBe(warning('npx fw generate'));
    }
    expect(await readFile(path.join(root, 'prisma/main/schema.prisma'), 'utf8')).toContain('provider = "sqlite"');
    expect(existsSync(path.join(migrations, '20260101000000_init/migration.sql'))).toBe(true);
  });
});

describe('fw.json moved a bind to PostgreSQL, and fw generate was not run', () => {
  test('fw migrate refuses naming fw.json\'s line and "npx fw generate"', async () => {
    const root = await migrateProject();
    await editConfig(root, (json) => {
      json.config.DATABASE_BINDS = { main: POSTGRES };
    });
    const text = await readFile(path.join(root, 'fw.json'), 'utf8');
    const lines = text.split('\n');
    const row = lines.findIndex((l) => l.includes('"DATABASE_BINDS"'));
    const at = `fw.json:${row + 1}:${lines[row]!.indexOf('"DATABASE_BINDS"') + 1}`;
    const ran = await fw(root, ['migrate', 'deploy']);
    expect(ran.error).toBe(
      `bind "main": DATABASE_BINDS.main is a postgresql URL (set in ${at}), but its migration environment ` +
        "(prisma/main/schema.prisma) is for sqlite: Prisma would run sqlite's schema and migrations on a postgresql database. " +
        'Run "npx fw generate": it renders the environment for fw.json\'s DATABASE_BINDS.main, a postgresql URL',
    );
    expect((await fw(root, ['generate', '--no-install'])).code).toBe(0);
    expect(await readFile(path.join(root, 'prisma/main/schema.prisma'), 'utf8')).toContain('provider = "postgresql"');
    // The environment fits now: on to Prisma, which finds no server.
    expect((await fw(root, ['migrate', 'deploy'])).error).toMatch(/^bind "main": prisma migrate deploy .* exited with code 1: /);
  });
});

describe('fw.json gives its binds as DATABASE_BINDS_FILE', () => {
  test('fw generate renders the environments of the file\'s binds, as the app reads them, so fw migrate agrees; an unreadable file is an error naming it', async () => {
    const root = await migrateProject();
    const file = path.join(root, 'config/binds.json');
    await mkdir(path.dirname(file));
    await writeFile(file, `${JSON.stringify({ main: POSTGRES })}\n`);
    await editConfig(root, (json) => {
      json.config.DATABASE_BINDS_FILE = 'config/binds.json';
    });
    const generated = await fw(root, ['generate', '--no-install']);
    expect([generated.code, generated.error, generated.stderr]).toEqual([0, undefined, '']);
    expect(await readFile(path.join(root, 'prisma/main/schema.prisma'), 'utf8')).toContain('provider = "postgresql"');
    // The environment fits the app's URL: on to Prisma, which finds no server.
    expect((await fw(root, ['migrate', 'deploy'])).error).toMatch(/^bind "main": prisma migrate deploy .* exited with code 1: /);

    await writeFile(file, '{"main": "mysql://me@127.0.0.1/notes"}\n');
    expect((await fw(root, ['generate', '--no-install'])).error).toContain(`fw.json DATABASE_BINDS_FILE (${file}): DATABASE_BINDS.main`);
    await rm(file);
    for (const args of [['generate', '--no-install'], ['migrate', 'deploy']]) {
      const ran = await fw(root, args);
      expect(ran.error, args.join(' ')).toBe(
        args[0] === 'generate'
          ? `fw.json: DATABASE_BINDS_FILE: cannot read ${file} (ENOENT); DATABASE_BINDS is read from that file`
          : `fw.json:${lineOf(await readFile(path.join(root, 'fw.json'), 'utf8'), 'DATABASE_BINDS_FILE')}: DATABASE_BINDS_FILE: cannot read ${file} (ENOENT); DATABASE_BINDS is read from that file`,
      );
    }
  });
});

/** `line:column` of `"key"` in a JSON text. */
function lineOf(text: string, key: string): string {
  const lines = text.split('\n');
  const row = lines.findIndex((l) => l.includes(`"${key}"`));
  return `${row + 1}:${lines[row]!.indexOf(`"${key}"`) + 1}`;
}

describe('SECURITY_MODELS_DB_BIND_FILE', () => {
  test('in fw.json: fw generate puts the security models in the file\'s bind, as the app reads it, and fw migrate agrees; set in the environment to another bind, fw generate warns and fw migrate refuses', async () => {
    const root = await migrateProject();
    const file = path.join(root, 'config/security-bind');
    await mkdir(path.dirname(file));
    await writeFile(file, 'audit\n');
    await editConfig(root, (json) => {
      const binds = json.config.DATABASE_BINDS as Record<string, string> | undefined;
      json.config.DATABASE_BINDS = { main: binds?.main ?? 'file:./var/notes.db', audit: 'file:./var/audit.db' };
      json.config.SECURITY_MODELS_DB_BIND_FILE = 'config/security-bind';
    });
    const generated = await fw(root, ['generate', '--no-install']);
    expect([generated.code, generated.error, generated.stderr]).toEqual([0, undefined, '']);
    expect(await readFile(path.join(root, 'prisma/audit/schema.prisma'), 'utf8')).toContain('// Security models: this is SECURITY_MODELS_DB_BIND ("audit").');
    expect(await readFile(path.join(root, 'prisma/main/schema.prisma'), 'utf8')).not.toContain('model User');
    const deployed = await fw(root, ['migrate', 'deploy']);
    expect([deployed.code, deployed.error]).toEqual([0, undefined]);

    // This machine's environment names another bind: the rendered environments stay fw.json's.
    const other = path.join(root, 'config/other-bind');
    await writeFile(other, 'main\n');
    const env = { SECURITY_MODELS_DB_BIND_FILE: other };
    const warned = await fw(root, ['generate', '--no-install'], env);
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain(
      'warning: SECURITY_MODELS_DB_BIND is "main" on this machine (set in environment variable SECURITY_MODELS_DB_BIND_FILE), but the migration environments are rendered for fw.json\'s "audit"',
    );
    expect(await readFile(path.join(root, 'prisma/audit/schema.prisma'), 'utf8')).toContain('SECURITY_MODELS_DB_BIND ("audit")');
    const refused = await fw(root, ['migrate', 'deploy'], env);
    expect(refused.error).toContain(
      'SECURITY_MODELS_DB_BIND is "main" on this machine (set in environment variable SECURITY_MODELS_DB_BIND_FILE), but the migration environments put the security models (User and those of the auth scaffold) in bind "audit", fw.json\'s',
    );
    expect(refused.error).toContain('unset it where it is set (environment variable SECURITY_MODELS_DB_BIND_FILE)');
    expect(refused.error).toContain('set SECURITY_MODELS_DB_BIND (or SECURITY_MODELS_DB_BIND_FILE) in fw.json and run "npx fw generate"');

    // Both forms in fw.json, or a bind the binds lack, is an error naming the key, as the kernel's.
    await editConfig(root, (json) => {
      json.config.SECURITY_MODELS_DB_BIND = 'audit';
    });
    expect((await fw(root, ['generate', '--no-install'])).error).toBe('fw.json: both SECURITY_MODELS_DB_BIND and SECURITY_MODELS_DB_BIND_FILE are set; set only one');
    await editConfig(root, (json) => {
      delete json.config.SECURITY_MODELS_DB_BIND;
    });
    await writeFile(file, 'audti\n');
    expect((await fw(root, ['generate', '--no-install'])).error).toContain(`fw.json SECURITY_MODELS_DB_BIND_FILE (${file})`);
  });
});
