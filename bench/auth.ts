/**
 * Auth: (1) bearer-token verification per second through fw's `TokenService.verify` (header
 * checks, kid check, key lookup, jose, claim checks) against raw `jose.jwtVerify` with the same
 * key and token, in this process; (2) a guarded route's req/s (session cookie → cache → user →
 * `requireUser`) and a bearer-grant route's against an unguarded route of the same app.
 *
 *   npx tsx --tsconfig test/tsconfig.json bench/auth.ts
 *   # BENCH_SECONDS=3 BENCH_CONNECTIONS=50 BENCH_ROUNDS=4 BENCH_VERIFY=20000 CACHE_TYPE=file|memory
 *
 * Rounds alternate who goes first; the reported ratio is the median of the per-round ratios.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { jwtVerify } from 'jose';
import { Fluid } from '../runtime-kernel/src/index.ts';
import { installAuth, requireUser, requirementOrGrant, signIn, type User, type UserService } from '../runtime-kernel/src/auth/index.ts';
import { createLogger } from '../runtime-kernel/src/core/index.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
const verifyCount = Number(process.env.BENCH_VERIFY ?? 20_000);
const cacheType = process.env.CACHE_TYPE ?? 'file';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const root = mkdtempSync(join(tmpdir(), 'fw-bench-auth-'));
writeFileSync(join(root, 'fw.json'), JSON.stringify({ name: 'bench', config: { CACHE_TYPE: cacheType, FW_PROCESSING: false } }));
mkdirSync(join(root, 'app_configs'));
writeFileSync(join(root, 'app_configs', 'bench.ini'), 'SECRET_KEY = bench\n');

const alice: User = { id: 1, email: 'a@example.test', emailVerified: true };
const users: UserService = {
  findById: (id) => (id === '1' ? alice : undefined),
  emailVerified: (u) => u.emailVerified,
  has2fa: () => false,
  isAdmin: () => false,
  roles: () => [],
  permissions: () => [],
};
const fluid = new Fluid({ root, env: {}, logger: createLogger('silent') });
const auth = installAuth(fluid, { users });
fluid.app.get('open', '/open', () => 'open');
fluid.app.get('guarded', '/guarded', requireUser, () => 'guarded');
fluid.app.get('granted', '/granted', requirementOrGrant(requireUser, 'read'), () => 'granted');
fluid.app.get('login', '/login', async (ctx) => {
  await signIn(ctx, alice);
  return 'ok';
});
const server = await fluid.listen(0, '127.0.0.1');
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// ---- (1) token verification ----
const token = await auth.mintToken(alice, ['read'], 3600);
const { key } = await auth.tokens.keys.current();
await auth.verifyToken(token);
async function timeVerify(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < verifyCount; i++) await fn();
  return verifyCount / (Number(process.hrtime.bigint() - start) / 1e9);
}
const raw = () => jwtVerify(token, key, { algorithms: ['HS256'] });
const fw = () => auth.verifyToken(token);
await timeVerify(raw);
await timeVerify(fw); // warm-up
const verify: Record<string, number[]> = { raw: [], fw: [] };
const verifyRatios: number[] = [];
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? (['raw', 'fw'] as const) : (['fw', 'raw'] as const);
  const got: Record<string, number> = {};
  for (const name of order) got[name] = await timeVerify(name === 'raw' ? raw : fw);
  verify.raw!.push(got.raw!);
  verify.fw!.push(got.fw!);
  verifyRatios.push(got.fw! / got.raw!);
}

// ---- (2) HTTP ----
const login = await fetch(`${base}/login`);
const cookie = login.headers
  .getSetCookie()
  .map((l) => l.split(';')[0])
  .join('; ');
const cases: Record<string, { path: string; headers: Record<string, string> }> = {
  'unguarded route (no session)': { path: '/open', headers: {} },
  'requireUser (session cookie)': { path: '/guarded', headers: { Cookie: cookie } },
  'requirementOrGrant (bearer token)': { path: '/granted', headers: { Authorization: `Bearer ${token}` } },
};
async function run(name: string, duration: number): Promise<number> {
  const c = cases[name]!;
  const result = await autocannon({ url: base + c.path, headers: c.headers, connections, duration });
  if (result.non2xx || result.errors) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}
const names = Object.keys(cases);
for (const n of names) await run(n, 1);
const http: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
const httpRatios: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? names : [...names].reverse();
  const got: Record<string, number> = {};
  for (const n of order) got[n] = await run(n, seconds);
  for (const n of names) {
    http[n]!.push(got[n]!);
    httpRatios[n]!.push(got[n]! / got[names[0]!]!);
  }
}
await fluid.close();
rmSync(root, { recursive: true, force: true });

const f = (n: number) => Math.round(n).toLocaleString('en-US');
console.log(`\nToken verification, ${verifyCount} verifications × ${rounds} alternating rounds\n`);
console.log('| Verifier | median verify/s | median ratio |');
console.log('|---|---:|---:|');
console.log(`| raw jose.jwtVerify (HS256, key in hand) | ${f(median(verify.raw!))} | 1.00× |`);
console.log(`| fw TokenService.verify | ${f(median(verify.fw!))} | ${median(verifyRatios).toFixed(2)}× |`);
console.log(`\nHTTP, CACHE_TYPE=${cacheType}, ${connections} connections, ${rounds} alternating rounds of ${seconds}s\n`);
console.log('| Route | median req/s | median ratio to unguarded |');
console.log('|---|---:|---:|');
for (const n of names) console.log(`| ${n} | ${f(median(http[n]!))} | ${median(httpRatios[n]!).toFixed(2)}× |`);
