/**
 * `@fw/kernel` as a user gets it: `npm pack`ed (with `@fw/schemas`), installed into an app folder
 * outside this checkout (its other dependencies from the registry), and nothing else.
 *
 * - Types: `tsc` with `skipLibCheck: false` passes on a correct `fluid/app.ts` that uses every
 *   subpath, and rejects a handler of the wrong type, so the published `.d.ts` need nothing the
 *   kernel does not depend on.
 * - Lean: none of the optional packages is installed, and each feature that needs one fails with
 *   an error naming the package, what needs it and the command that adds it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sh } from '../support/process.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const KERNEL_PKG = JSON.parse(readFileSync(path.join(REPO, 'runtime-kernel/package.json'), 'utf8')) as {
  peerDependencies: Record<string, string>;
  fwDevPackages: Record<string, string>;
  dependencies: Record<string, string>;
};
const version = (name: string) => (KERNEL_PKG.peerDependencies[name] ?? KERNEL_PKG.fwDevPackages[name])!.replace(/^\^/, '');

let app = '';

function write(rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(app, rel)), { recursive: true });
  writeFileSync(path.join(app, rel), text);
}

const APP_TS = `import { Additive, Fluid, HttpError, type Handler, type Plugin } from '@fw/kernel';
import { auth, requireUser, type User, type UserService } from '@fw/kernel/auth';
import type { Cache } from '@fw/kernel/cache';
import { FluidCore, loadConfig } from '@fw/kernel/core';
import { Database, type PrismaClientLike } from '@fw/kernel/db';
import type { Signal } from '@fw/kernel/events';
import type { Frontend } from '@fw/kernel/frontend';
import type { MergedTranslations } from '@fw/kernel/i18n';
import { limit } from '@fw/kernel/limits';
import type { SentInfo } from '@fw/kernel/mail';
import { currentContext } from '@fw/kernel/sockets';
import type { TokenClaims } from '@fw/kernel/tokens';

declare module '@fw/kernel' {
  interface FluidCore {
    readonly clock: () => Date;
  }
}

export const fluid = new Fluid({ root: new URL('..', import.meta.url) });

const clock: Plugin = {
  name: 'clock',
  register(app) {
    Object.defineProperty(app, 'clock', { value: () => new Date() });
    app.use(async (ctx, next) => {
      ctx.set('X-Clock', app.clock().toISOString());
      await next();
    }, 'app');
  },
};
fluid.plugin(clock);

interface Member extends User {
  readonly admin: boolean;
}
const members: UserService<Member> = {
  findById: (id) => (id === '1' ? { id: 1, email: 'a@example.test', emailVerified: true, admin: true } : undefined),
  emailVerified: (u) => u.emailVerified,
  has2fa: () => false,
  isAdmin: (u) => u.admin,
  roles: () => [],
  permissions: () => [],
};
fluid.plugin(auth({ users: members }));

const home: Handler = (ctx) => {
  const t: MergedTranslations = ctx.i18n;
  return ctx.render('index.html', { locale: ctx.locale, hello: t.gettext('Hello'), at: ctx.fluid.clock() });
};
fluid.app.get('home', '/', home);
fluid.app.get('me', '/me', requireUser, (ctx) => ({ user: ctx.state.user }));
fluid.api.get('item', '/items/:id', limit('5/minute'), (ctx) => {
  if (ctx.params.id === '0') throw new HttpError(404, 'No such item');
  return { id: ctx.params.id };
});
fluid.ws.route('echo', '/echo', (socket) => socket.on('message', (m) => socket.send(String(m) + String(currentContext()?.locale))));

export const created: Signal<{ id: number }> = fluid.events.createSignal<{ id: number }>('user.created');
export const surface: Frontend = fluid.frontend;
export const cache: Cache = fluid.cache;
export const sent: (to: string) => Promise<SentInfo> = (to) => fluid.mail.send({ to, subject: 'Hi', text: 'Hi' });
export const claims: (token: string) => Promise<TokenClaims> = (token) => fluid.auth.verifyToken(token);
export const core: FluidCore = fluid;
export const port: number = loadConfig({ root: fluid.root }).PORT;

class Client implements PrismaClientLike {
  constructor(readonly options: { adapter?: unknown }) {}
  async $connect(): Promise<void> {}
  async $disconnect(): Promise<void> {}
}
export const db = new Database({ binds: fluid.config.DATABASE_BINDS, root: fluid.root, clients: { main: Client } });

const blog = new Additive('blog', { root: new URL('../additives/blog/', import.meta.url) });
blog.api.get('posts', '/posts', () => [{ id: 1 }]);
blog.beforeEnable((app) => app.logger.info(app.frontend.type));
fluid.additive(blog);

export default fluid;
`;

/** Runs a script in the app with plain node; answers what it printed on its last line (JSON). */
function run(script: string): { ok: boolean; error?: string; name?: string } {
  write('probe.mjs', script);
  const result = sh(process.execPath, ['probe.mjs'], app, 120_000);
  return JSON.parse(result.stdout.trim().split('\n').pop()!) as { ok: boolean; error?: string; name?: string };
}

/** A probe: builds the app with `config` and runs `body` (given `fluid`), printing any error. */
const probe = (config: Record<string, unknown>, body: string) => `
import { Fluid } from '@fw/kernel';
const logger = { debug() {}, info() {}, warn() {}, error() {} };
try {
  const fluid = new Fluid({ root: new URL('.', import.meta.url), env: {}, logger, config: ${JSON.stringify({ SECRET_KEY: 'probe', ...config })} });
  try {
    ${body}
    console.log(JSON.stringify({ ok: true }));
  } finally {
    await fluid.close().catch(() => undefined);
  }
} catch (error) {
  console.log(JSON.stringify({ ok: false, name: error.name, error: error.message }));
}
process.exit(0);
`;

beforeAll(() => {
  sh('npx', ['tsc', '-b', 'schemas', 'runtime-kernel'], REPO, 300_000);
  app = mkdtempSync(path.join(tmpdir(), 'fw-kernel-pack-'));
  const packs = path.join(app, '.packs');
  mkdirSync(packs);
  for (const ws of ['schemas', 'runtime-kernel']) sh('npm', ['pack', '--silent', '--pack-destination', packs], path.join(REPO, ws), 120_000);
  const tarballs = readdirSync(packs).map((f) => path.join('.packs', f));
  write('package.json', JSON.stringify({ name: 'shop', version: '0.0.0', private: true, type: 'module' }, null, 2));
  write('fw.json', JSON.stringify({ name: 'shop', config: {} }, null, 2));
  write('fluid/templates/index.html', '<p>{{hello}}</p>');
  write(
    'tsconfig.json',
    JSON.stringify({
      compilerOptions: { strict: true, target: 'es2023', module: 'nodenext', moduleResolution: 'nodenext', noEmit: true, skipLibCheck: false },
      include: ['fluid'],
    }),
  );
  sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], app, 600_000);
}, 900_000);

afterAll(() => {
  if (app) rmSync(app, { recursive: true, force: true });
});

describe('the packed kernel in an app of its own', () => {
  it('installs none of the optional packages', () => {
    for (const name of [...Object.keys(KERNEL_PKG.peerDependencies), ...Object.keys(KERNEL_PKG.fwDevPackages)]) {
      expect(() => sh(process.execPath, ['-e', `require.resolve(${JSON.stringify(name)})`], app, 30_000), name).toThrow();
    }
  });

  it('type-checks a correct fluid/app.ts with skipLibCheck off, and rejects a handler of the wrong type', () => {
    write('fluid/app.ts', APP_TS);
    const tsc = path.join(REPO, 'node_modules/typescript/bin/tsc');
    const good = sh(process.execPath, [tsc, '-p', '.'], app, 300_000, [0, 1, 2]);
    expect(good.stdout + good.stderr).toBe('');
    expect(good.status).toBe(0);
    write('fluid/wrong.ts', "import type { Handler } from '@fw/kernel';\nexport const wrong: Handler = (ctx: number) => ctx;\n");
    const bad = sh(process.execPath, [tsc, '-p', '.'], app, 300_000, [0, 1, 2]);
    rmSync(path.join(app, 'fluid/wrong.ts'));
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/fluid\/wrong\.ts\(2,14\): error TS2322/);
    expect(bad.stdout.split('\n').filter((l) => / error TS/.test(l))).toHaveLength(1);
  }, 600_000);

  it('serves an htmx app without any optional package', () => {
    const result = run(
      probe(
        { APP_FRONTEND: { type: 'htmx', alpine: true } },
        `fluid.app.get('home', '/', () => 'hi');
    const server = await fluid.listen(0, '127.0.0.1');
    const res = await fetch('http://127.0.0.1:' + server.address().port + '/fluid/static/vendor/htmx.min.js');
    if (res.status !== 200) throw new Error('htmx: ' + res.status);`,
      ),
    );
    expect(result).toEqual({ ok: true });
  });

  const missing = (pkg: string, what: RegExp) =>
    new RegExp(`The npm package '${pkg.replace('/', '\\/')}' is not installed in .*; ${what.source} needs it\\. Add it with: npm install ${pkg.replace('/', '\\/')}@${version(pkg).replace(/\./g, '\\.')}$`);

  it('mail without nodemailer names it, MAIL_*, and the install command', () => {
    const result = run(probe({}, `await fluid.mail.send({ to: 'a@example.test', from: 'b@example.test', subject: 'x', text: 'y' });`));
    expect(result.name).toBe('MissingPackageError');
    expect(result.error).toMatch(missing('nodemailer', /mail \(fluid\.mail, the MAIL_\* keys\)/));
  });

  it('mail works once nodemailer is installed while the app runs (the failed load is tried again)', () => {
    const link = path.join(app, 'node_modules', 'nodemailer');
    const result = run(
      probe(
        { MAIL_DEFAULT_SENDER: 'b@example.test' },
        `const { symlinkSync, rmSync } = await import('node:fs');
    const message = { to: 'a@example.test', subject: 'x', text: 'y' };
    const first = await fluid.mail.send(message).then(() => 'sent', (e) => e.name);
    if (first !== 'MissingPackageError') throw new Error('before the install: ' + first);
    symlinkSync(${JSON.stringify(path.join(REPO, 'node_modules', 'nodemailer'))}, ${JSON.stringify(link)}, 'dir');
    try {
      const info = await fluid.mail.send(message);
      if (!info.file) throw new Error('no outbox file');
    } finally {
      rmSync(${JSON.stringify(link)});
    }`,
      ),
    );
    expect(result).toEqual({ ok: true });
  });

  it('CACHE_TYPE=redis without ioredis names it, for the events and for the cache', () => {
    const redis = { CACHE_TYPE: 'redis', CACHE_REDIS_URL: 'redis://127.0.0.1:1/0' };
    const app = run(probe(redis, ''));
    expect(app.error).toMatch(missing('ioredis', /CACHE_TYPE=redis \(events across processes\)/));
    const cache = run(
      probe(
        {},
        `const { openCache } = await import('@fw/kernel/cache');
    openCache({ ...fluid.config, ...${JSON.stringify(redis)} }, { root: fluid.root, logger: fluid.logger });`,
      ),
    );
    expect(cache.error).toMatch(missing('ioredis', /CACHE_TYPE=redis \(the cache\)/));
  });

  it('EVENTS_REDIS_URL without ioredis fails at construction, naming the key', () => {
    const result = run(probe({ EVENTS_REDIS_URL: 'redis://127.0.0.1:1/0' }, ''));
    expect(result.error).toMatch(missing('ioredis', /EVENTS_REDIS_URL \(events across processes\)/));
  });

  it('rate-limit counters in Redis without ioredis name it', () => {
    const result = run(
      probe(
        {},
        `const { createRateLimiter } = await import('@fw/kernel/limits');
    createRateLimiter({ config: { ...fluid.config, CACHE_TYPE: 'redis', CACHE_REDIS_URL: 'redis://127.0.0.1:1/0' }, logger: fluid.logger, root: fluid.root });`,
      ),
    );
    expect(result.error).toMatch(missing('ioredis', /CACHE_TYPE=redis \(rate-limit counters\)/));
  });

  it('FW_TAILWIND without the Tailwind packages names all three in one install command', () => {
    write('fluid/static/tailwind_raw.css', '@import "tailwindcss";');
    const result = run(probe({ FW_TAILWIND: true }, 'await fluid.mix();'));
    rmSync(path.join(app, 'fluid/static'), { recursive: true, force: true });
    const [node, oxide, css] = ['@tailwindcss/node', '@tailwindcss/oxide', 'tailwindcss'].map((p) => `${p}@${version(p)}`);
    expect(result.name).toBe('MissingPackageError');
    expect(result.error).toContain(
      `The npm packages '@tailwindcss/node', '@tailwindcss/oxide', 'tailwindcss' are not installed in ${app}; ` +
        `Tailwind (FW_TAILWIND, fw tailwind) needs them. Add them with: npm install ${node} ${oxide} ${css}`,
    );
  });

  it('a Vite surface in debug without Vite names it', () => {
    write('fluid/frontend/index.html', '<html><head></head><body></body></html>');
    const result = run(probe({ DEBUG: true, APP_FRONTEND: { type: 'vite', framework: 'react' } }, 'await fluid.mix();'));
    rmSync(path.join(app, 'fluid/frontend'), { recursive: true, force: true });
    expect(result.error).toMatch(/The npm package '(vite|koa-proxies|http-proxy)' is not installed .*a Vite surface in debug mode/);
  });

  it('a database bind without its adapter names the packages', () => {
    const connect = (url: string) =>
      probe(
        {},
        `const { Database } = await import('@fw/kernel/db');
    class Client { constructor(o) { this.adapter = o.adapter; } async $connect() {} async $disconnect() {} }
    const db = new Database({ binds: { main: ${JSON.stringify(url)} }, root: fluid.root, clients: { main: Client } });
    await db.bind('main').adapter.connect();`,
      );
    const sqlite = run(connect('file:./var/main.db'));
    expect(sqlite.error).toMatch(missing('@libsql/client', /the SQLite database bind "main" \(DATABASE_BINDS\)/));
    const pg = run(connect('postgres://u@127.0.0.1:1/x'));
    expect(pg.error).toMatch(missing('pg', /the PostgreSQL database bind "main" \(DATABASE_BINDS\)/));
  });
});
