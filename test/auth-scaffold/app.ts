/**
 * What the auth-scaffold tests share: a project made by `fw create project` + `fw create auth`
 * inside the checkout (so the app resolves fw's node_modules), migrated with the Prisma stand-in,
 * booted in-process on a free port with a real SMTP server (smtp-server; messages parsed with
 * mailparser), and a cookie-keeping HTTP client that fills in CSRF tokens like a browser form.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';
import { fw } from '../generators/project-helpers.js';
import { freePort } from '../support/process.js';
import { PRISMA_BIN, REPO_ROOT, usePrismaOffline } from '../support/prisma.js';

/** A received message. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A real SMTP server collecting messages; `next(to)` waits for the next one to that address. */
export class Inbox {
  readonly messages: Mail[] = [];
  #waiters: Array<{ to: string; resolve: (mail: Mail) => void }> = [];
  #taken = new Set<Mail>();
  server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, _session, done) => {
        simpleParser(stream)
          .then((parsed: ParsedMail) => {
            const to = Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text;
            const mail: Mail = { to: to ?? '', subject: parsed.subject ?? '', text: parsed.text ?? '', html: typeof parsed.html === 'string' ? parsed.html : '' };
            this.messages.push(mail);
            const waiter = this.#waiters.find((w) => w.to === mail.to);
            if (waiter) {
              this.#waiters = this.#waiters.filter((w) => w !== waiter);
              this.#taken.add(mail);
              waiter.resolve(mail);
            }
            done();
          })
          .catch(done);
      },
    });
  }

  async listen(): Promise<void> {
    this.port = await freePort();
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
  }

  /** The next message to `to` not yet handed out (already received, or the next to arrive). */
  next(to: string): Promise<Mail> {
    const ready = this.messages.find((m) => m.to === to && !this.#taken.has(m));
    if (ready) {
      this.#taken.add(ready);
      return Promise.resolve(ready);
    }
    return new Promise((resolve) => this.#waiters.push({ to, resolve }));
  }

  /** Messages to `to` received so far. */
  to(to: string): Mail[] {
    return this.messages.filter((m) => m.to === to);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The first link in `text` (a mail's text part). */
export function linkIn(text: string): string {
  const url = /https?:\/\/\S+/.exec(text)?.[0];
  if (!url) throw new Error(`no link in: ${text}`);
  return url;
}

/** The `href` of every `<link>` of a page (its icon, its stylesheets). */
export function linkHrefs(html: string): string[] {
  return [...html.matchAll(/<link\b[^>]*>/g)].flatMap((m) => /\bhref="([^"]+)"/.exec(m[0])?.[1] ?? []);
}

/** A project with the auth scaffold. */
export interface ScaffoldProject {
  root: string;
  /** What `fw create auth` printed. */
  authOutput: string;
  remove(): Promise<void>;
}

/** `fw create project app --yes [flags]` + `fw create auth` in `.tmp/auth-scaffold/` of the checkout. */
export async function scaffoldProject(flags: string[] = [], edit?: (root: string) => Promise<void>): Promise<ScaffoldProject> {
  const parent = path.join(REPO_ROOT, '.tmp', 'auth-scaffold');
  await mkdir(parent, { recursive: true });
  const work = await mkdtemp(path.join(parent, 'app-'));
  const made = await fw(work, 'create', 'project', 'app', '--yes', ...flags);
  expect(made.error, 'create project').toBeUndefined();
  const root = path.join(work, 'app');
  if (edit) await edit(root);
  const auth = await fw(root, 'create', 'auth');
  expect(auth.error, 'fw create auth').toBeUndefined();
  expect(auth.code, auth.out).toBe(0);
  return { root, authOutput: auth.out, remove: () => rm(work, { recursive: true, force: true }) };
}

/** `fw migrate dev --name auth`, which also generates the Prisma client the app imports. */
export async function migrate(root: string, env: Record<string, string> = {}): Promise<void> {
  usePrismaOffline();
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const dev = await fw(root, 'migrate', 'dev', '--name', 'auth', '--force');
    expect(dev.error, `fw migrate dev:\n${dev.out}`).toBeUndefined();
    expect(existsSync(path.join(root, 'generated/prisma/main/client.ts')), 'fw migrate dev generated the client').toBe(true);
  } finally {
    for (const key of Object.keys(env)) if (saved[key] === undefined) delete process.env[key];
  }
  expect(PRISMA_BIN).toContain(REPO_ROOT);
}

/** The booted app. */
export interface RunningApp {
  url: string;
  inbox: Inbox;
  close(): Promise<void>;
}

interface ListeningFluid {
  listen(port: number, host: string): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Imports the project's `fluid/app.ts` in this process and listens on a free port, with mail
 * going to a fresh SMTP server and BASE_URL pointing at the server (links in mail work).
 */
export async function boot(root: string, env: Record<string, string> = {}): Promise<RunningApp> {
  const inbox = new Inbox();
  await inbox.listen();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  Object.assign(process.env, {
    BASE_URL: url,
    MAIL_SERVER: '127.0.0.1',
    MAIL_PORT: String(inbox.port),
    MAIL_USE_TLS: 'false',
    MAIL_USE_STARTTLS: 'false',
    CACHE_TYPE: 'memory',
    ...env,
  });
  const { fluid } = (await import(pathToFileURL(path.join(root, 'fluid/app.ts')).href)) as { fluid: ListeningFluid };
  await fluid.listen(port, '127.0.0.1');
  return {
    url,
    inbox,
    close: async () => {
      await fluid.close();
      await inbox.close();
    },
  };
}

/** An HTTP client keeping cookies, reading CSRF tokens from the last page, following no redirects. */
export class Client {
  readonly cookies = new Map<string, string>();
  csrf = '';

  constructor(readonly base: string) {}

  async request(method: string, pathname: string, init: { form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { accept: 'text/html', ...init.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    } else if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    const response = await fetch(new URL(pathname, this.base), { method, headers, body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** GET a page; remembers its CSRF token. */
  async page(pathname: string): Promise<{ status: number; html: string; location: string | null }> {
    const response = await this.request('GET', pathname);
    const html = await response.text();
    const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
    if (token) this.csrf = token;
    return { status: response.status, html, location: response.headers.get('location') };
  }

  /** POST a form with the last page's CSRF token (unless the form names its own `csrf_token`). */
  async post(pathname: string, form: Record<string, string>): Promise<{ status: number; html: string; location: string | null }> {
    const response = await this.request('POST', pathname, { form: { csrf_token: this.csrf, ...form } });
    const html = await response.text();
    const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
    if (token) this.csrf = token;
    return { status: response.status, html, location: response.headers.get('location') };
  }
}
