/**
 * The session store on the default `file` cache remembers sessions in memory, so it must still see
 * what it does not write itself: two apps on one project (two processes of a host sharing
 * `CACHE_DIR`) see each other's sign-outs and session changes, and a hand-deleted cache folder
 * signs everyone out. Sessions survive a restart of both.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireUser, session, signOut } from '@fw/kernel/auth';
import { cleanupProjects, makeProject } from '../kernel/helpers.js';
import { authApp, client, USERS, type Client } from './helpers.js';

function boot(root: string) {
  const app = authApp({}, root);
  app.fluid.app.get('me', '/me', requireUser, (ctx) => ({ uid: session(ctx).uid, note: session(ctx).note ?? null }));
  app.fluid.app.get('note', '/note/:text', requireUser, (ctx) => {
    session(ctx).note = ctx.params.text!;
    return { ok: true };
  });
  app.fluid.app.get('logout', '/logout', (ctx) => {
    signOut(ctx);
    return { ok: true };
  });
  return app;
}

let root: string;
let a: ReturnType<typeof boot>;
let b: ReturnType<typeof boot>;
let ca: Client;
let cb: Client;

/** Signs in on A and gives B the same cookies. */
async function signInBoth(): Promise<void> {
  ca.jar.clear();
  await ca.signIn(USERS.verified!);
  cb.jar.clear();
  for (const [k, v] of ca.jar) cb.jar.set(k, v);
}

beforeAll(async () => {
  root = makeProject({ config: { CACHE_TYPE: 'file' } });
  a = boot(root);
  b = boot(root);
  ca = await client(a.fluid);
  cb = await client(b.fluid);
});
afterAll(async () => {
  await Promise.all([a?.fluid.close(), b?.fluid.close()]);
  cleanupProjects();
});

describe('sessions on the file cache, two processes', () => {
  it('a session made in one is valid in the other, and a change in either is seen by both', async () => {
    await signInBoth();
    expect(await (await ca.fetch('/me')).json()).toEqual({ uid: String(USERS.verified!.id), note: null });
    expect((await cb.fetch('/me')).status).toBe(200); // B remembers it now
    expect((await ca.fetch('/note/first')).status).toBe(200);
    expect(await (await cb.fetch('/me')).json()).toMatchObject({ note: 'first' });
    expect((await cb.fetch('/note/second')).status).toBe(200);
    expect(await (await ca.fetch('/me')).json()).toMatchObject({ note: 'second' });
  });

  it('a sign-out in one process signs the session out in the other', async () => {
    await signInBoth();
    const stolen = new Map(ca.jar); // the cookies as they were before the sign-out
    expect((await ca.fetch('/me')).status).toBe(200);
    expect((await cb.fetch('/me')).status).toBe(200);
    await cb.fetch('/logout');
    ca.jar.clear();
    for (const [k, v] of stolen) ca.jar.set(k, v);
    expect((await ca.fetch('/me')).status).toBe(401);
  });

  it('deleting the cache folder by hand signs everyone out', async () => {
    await signInBoth();
    expect((await ca.fetch('/me')).status).toBe(200);
    expect((await cb.fetch('/me')).status).toBe(200);
    rmSync(join(root, a.fluid.config.CACHE_DIR), { recursive: true, force: true });
    expect((await ca.fetch('/me')).status).toBe(401);
    expect((await cb.fetch('/me')).status).toBe(401);
  });

  it('a session survives a restart of both', async () => {
    await signInBoth();
    expect((await ca.fetch('/note/kept')).status).toBe(200);
    const cookies = new Map(ca.jar);
    await Promise.all([a.fluid.close(), b.fluid.close()]);
    a = boot(root);
    b = boot(root);
    ca = await client(a.fluid);
    cb = await client(b.fluid);
    for (const [k, v] of cookies) cb.jar.set(k, v);
    expect(await (await cb.fetch('/me')).json()).toMatchObject({ note: 'kept' });
  });
});
