/**
 * Auth: a route behind `requireUser` with a session cookie (the default cache backend, and the
 * memory cache) against Koa + koa-session with an in-memory store, over HTTP; and bearer-token
 * verification (`auth.verifyToken`: header and kid checks, key lookup, jose, claim checks)
 * against raw `jose.jwtVerify` with the key in hand, in this process. The baseline checks its
 * signed cookie with Koa's default keygrip, fw with `CookieKeys` (the same signatures, one HMAC
 * and `timingSafeEqual` instead of keygrip's tsscmp: docs/performance.md, "Sessions").
 *
 *   npm run bench -- auth        # BENCH_ROUNDS=5 BENCH_SECONDS=2 BENCH_VERIFY=20000
 */
import { join } from 'node:path';
import { Fluid } from '@fw/kernel';
import { installAuth } from '@fw/kernel/auth';
import { jwtVerify } from 'jose';
import { compareHttp, get, httpSettings, type Endpoint } from './lib/http-compare.ts';
import { compareOps } from './lib/micro.ts';
import { kernelProject } from './lib/project.ts';
import { report } from './lib/report.ts';
import { startServer, stopAll, type RunningServer } from './lib/server.ts';
import { BENCH_DIR, knob, rounds } from './lib/settings.ts';
import { ALICE, USERS } from './servers/users.ts';

const ROUNDS = rounds(5);
const server = (file: string, args: string[], name: string): Promise<RunningServer> => startServer(join(BENCH_DIR, 'servers', file), args, { name });

/** The guarded path with the session cookie a `GET /login` set. */
async function signedIn(label: string, s: RunningServer): Promise<Endpoint> {
  const login = await get(s.url('/login'));
  const setCookie = login.headers['set-cookie'] ?? [];
  if (login.status !== 200 || setCookie.length === 0) throw new Error(`${label}: /login answered ${login.status} without a cookie`);
  return { label, server: s, path: '/guarded', headers: { Cookie: setCookie.map((c) => c.split(';')[0]).join('; ') } };
}

const servers: RunningServer[] = [];
try {
  const [fileCache, memoryCache, koa] = await Promise.all([
    server('fw-session.ts', [kernelProject()], 'fw, default cache'),
    server('fw-session.ts', [kernelProject({ CACHE_TYPE: 'memory' })], 'fw, memory cache'),
    server('koa-session.ts', [], 'Koa + koa-session'),
  ]);
  servers.push(fileCache, memoryCache, koa);
  const baseline = await signedIn('Koa + koa-session (memory store)', koa);
  const http = await compareHttp(
    'auth',
    [
      {
        name: 'guarded session route, default cache (file)',
        fw: await signedIn('fw requireUser, CACHE_TYPE default (file)', fileCache),
        baseline,
        target: 'CPU ≤ 1.10×',
      },
      { name: 'guarded session route, memory cache', fw: await signedIn('fw requireUser, CACHE_TYPE memory', memoryCache), baseline },
    ],
    { rounds: ROUNDS },
  );

  const fluid = new Fluid({ root: kernelProject(), env: {} });
  const auth = installAuth(fluid, { users: USERS });
  await fluid.mix();
  const token = await auth.mintToken(ALICE, ['read'], 3600);
  const { key } = await auth.tokens.keys.current();
  const verify = await compareOps(
    'auth',
    [
      {
        name: 'bearer token verify',
        fw: { label: 'fw auth.verifyToken', run: () => auth.verifyToken(token) },
        baseline: { label: 'raw jose.jwtVerify (HS256, key in hand)', run: () => jwtVerify(token, key, { algorithms: ['HS256'] }) },
        ops: knob('BENCH_VERIFY', 20_000, 2_000),
      },
    ],
    { rounds: ROUNDS },
  );
  await fluid.close();
  report('Auth: sessions and bearer tokens', `${httpSettings(ROUNDS)}; verify: ${ROUNDS} interleaved rounds in one process`, [...http, ...verify]);
} finally {
  await stopAll(servers);
}
