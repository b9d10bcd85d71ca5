/**
 * The auth scaffold stays regenerable, on PostgreSQL: the user edits the sign-in page, the
 * UserService and a message in flows.ts, turns AUTH_TWO_FACTOR off and on with `fw generate` in
 * between; every edit is kept, the two-factor files go and come back, the app type-checks, and
 * the flows still pass against a real PostgreSQL with real mail.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editConfig, fw } from '../generators/project-helpers.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { REPO_ROOT } from '../support/prisma.js';
import { boot, Client, linkIn, migrate, scaffoldProject, type RunningApp, type ScaffoldProject } from './app.js';

let server: TestPostgres;
let project: ScaffoldProject;
let app: RunningApp | undefined;

beforeAll(async () => {
  server = await startPostgres();
  project = await scaffoldProject([], (root) =>
    editConfig(root, (json) => {
      json.config.DATABASE_BINDS = { main: server.url() };
    }),
  );
});
afterAll(async () => {
  await app?.close();
  await project?.remove();
  await server?.stop();
});

async function edit(file: string, from: string, to: string): Promise<void> {
  const abs = path.join(project.root, file);
  const text = await readFile(abs, 'utf8');
  expect(text, `${file} holds ${from}`).toContain(from);
  await writeFile(abs, text.replace(from, to));
}

async function generate(): Promise<string> {
  const run = await fw(project.root, 'generate');
  expect(run.error, run.out).toBeUndefined();
  expect(run.code, run.out).toBe(0);
  return run.out;
}

function tsc(root: string): Promise<{ status: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', root], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (status) => done({ status, output }));
  });
}

const EDITS = {
  page: ['{{#> auth/layout title="Sign in"}}', '{{#> auth/layout title="Sign in"}}\n<p class="brand">Welcome back to Acme.</p>'],
  users: ['isAdmin: (user) => user.isAdmin,', 'isAdmin: (user) => user.isAdmin && user.emailVerified,'],
  flows: ["export const SIGN_IN_FAILED = 'The email address or password is not right.';", "export const SIGN_IN_FAILED = 'Wrong email or password.';"],
} as const;

describe('regenerating the auth scaffold', () => {
  it('keeps the edits while AUTH_TWO_FACTOR goes off and on, and type-checks', async () => {
    await edit('fluid/templates/auth/sign-in.html', ...EDITS.page);
    await edit('fluid/auth/users.ts', ...EDITS.users);
    await edit('fluid/auth/flows.ts', ...EDITS.flows);

    await editConfig(project.root, (json) => {
      json.config.AUTH_TWO_FACTOR = false;
    });
    const off = await generate();
    expect(off).toMatch(/delete\s+fluid\/auth\/two-factor\.ts/);
    expect(existsSync(path.join(project.root, 'fluid/templates/auth/two-factor.html'))).toBe(false);
    const flowsOff = await readFile(path.join(project.root, 'fluid/auth/flows.ts'), 'utf8');
    expect(flowsOff).not.toContain('startChallenge');
    expect(flowsOff).toContain(EDITS.flows[1]);

    await editConfig(project.root, (json) => {
      json.config.AUTH_TWO_FACTOR = true;
    });
    await generate();
    expect(existsSync(path.join(project.root, 'fluid/auth/two-factor.ts'))).toBe(true);
    const read = (file: string) => readFile(path.join(project.root, file), 'utf8');
    expect(await read('fluid/templates/auth/sign-in.html')).toContain(EDITS.page[1]);
    expect(await read('fluid/auth/users.ts')).toContain(EDITS.users[1]);
    const flowsOn = await read('fluid/auth/flows.ts');
    expect(flowsOn).toContain(EDITS.flows[1]);
    expect(flowsOn).toContain('startChallenge');
    expect(flowsOn).not.toMatch(/^(<<<<<<<|>>>>>>>)/m);
    // A second run right after changes nothing.
    expect(await generate()).not.toMatch(/^\s+(update|merge|create|delete|conflict)\s/m);

    await migrate(project.root);
    const checked = await tsc(project.root);
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);
  }, 180_000);

  it('serves the flows from PostgreSQL: sign up, mail, verify, sign in with the edited page and message', async () => {
    app = await boot(project.root);
    const email = 'pat@example.test';
    const client = new Client(app.url);
    await client.page('/sign-up');
    expect((await client.post('/sign-up', { email, password: 'correct horse battery' })).status).toBe(200);
    const link = new URL(linkIn((await app.inbox.next(email)).text));
    expect((await client.page(link.pathname + link.search)).location).toBe('/sign-in?notice=verified');
    const signInPage = await client.page('/sign-in');
    expect(signInPage.html).toContain('Welcome back to Acme.');
    const wrong = await client.post('/sign-in', { email, password: 'not the password' });
    expect(wrong.html).toContain('Wrong email or password.');
    expect((await client.post('/sign-in', { email, password: 'correct horse battery' })).location).toBe('/');
    const account = await client.page('/account');
    expect(account.html).toContain('Signed in as <strong>pat@example.test</strong>.');
    expect(account.html).toContain('Manage two-factor authentication');
  });
});
