/**
 * The sign-in of the auth scaffold (fluid/auth/flows.ts `passwordSignIn`), as a server: CSRF-checked
 * form POST → look the user up → verify the password → `signIn` (new session id) → 302. argv[2]
 * is the project, argv[3] the hash: `argon2` (the scaffold's argon2id parameters, read from its
 * blueprint so they cannot drift) or `sha256` (a plain SHA-256 compared in constant time: the same
 * flow without the deliberate cost). `GET /sign-in` hands out a CSRF token (cookie-bound).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hash, verify } from '@node-rs/argon2';
import { Fluid } from '@fw/kernel';
import { csrfToken, installAuth, signIn, type UserService } from '@fw/kernel/auth';
import { announce } from '../lib/server.ts';
import { REPO } from '../lib/settings.ts';

const blueprint = readFileSync(join(REPO, 'blueprints/auth/scaffold/common/fluid/auth/passwords.ts.hbs'), 'utf8');
const found = /ARGON2_OPTIONS = \{ memoryCost: ([\d_]+), timeCost: (\d+), parallelism: (\d+) \}/.exec(blueprint);
if (!found) throw new Error('ARGON2_OPTIONS not found in the auth blueprint');
const ARGON2 = { memoryCost: Number(found[1]!.replaceAll('_', '')), timeCost: Number(found[2]), parallelism: Number(found[3]) };

const mode = process.argv[3] === 'sha256' ? 'sha256' : 'argon2';
const PASSWORD = 'correct horse battery';
const sha = (text: string) => createHash('sha256').update(text).digest();

interface BenchUser { id: number; email: string; emailVerified: boolean; passwordHash: string }
const user: BenchUser = { id: 1, email: 'ann@example.test', emailVerified: true, passwordHash: mode === 'argon2' ? await hash(PASSWORD, ARGON2) : sha(PASSWORD).toString('hex') };
const users: UserService<BenchUser> = {
  findById: (id) => (id === '1' ? user : undefined),
  emailVerified: (u) => u.emailVerified,
  has2fa: () => false,
  isAdmin: () => false,
  roles: () => [],
  permissions: () => [],
};

// As in the scaffold's verifyPassword: an unknown address is checked against a dummy hash.
const dummy = mode === 'argon2' ? await hash('not a password of anyone', ARGON2) : sha('not a password of anyone').toString('hex');
const check = (stored: string, password: string): Promise<boolean> =>
  mode === 'argon2' ? verify(stored, password) : Promise.resolve(timingSafeEqual(Buffer.from(stored, 'hex'), sha(password)));

const fluid = new Fluid({ root: process.argv[2] ?? '.', env: { CACHE_TYPE: 'memory' } });
installAuth(fluid, { users });
fluid.app.get('form', '/sign-in', (ctx) => csrfToken(ctx));
fluid.app.post('sign-in', '/sign-in', async (ctx) => {
  const form = ctx.state.form as URLSearchParams;
  const found = form.get('email') === user.email ? user : undefined;
  const ok = await check(found?.passwordHash ?? dummy, form.get('password') ?? '');
  if (!found || !ok) {
    ctx.status = 422;
    return 'no';
  }
  await signIn(ctx, found);
  ctx.redirect('/');
});
announce(await fluid.listen(0, '127.0.0.1'));
