/**
 * The kernel with auth installed (project at argv[2], its CACHE_TYPE): `GET /login` signs the
 * user in (session cookie), `GET /guarded` answers `guarded` behind `requireUser`.
 */
import { Fluid } from '@fw/kernel';
import { installAuth, requireUser, signIn } from '@fw/kernel/auth';
import { announce } from '../lib/server.ts';
import { ALICE, USERS } from './users.ts';

const fluid = new Fluid({ root: process.argv[2] ?? '.', env: {} });
installAuth(fluid, { users: USERS });
fluid.app.get('login', '/login', async (ctx) => {
  await signIn(ctx, ALICE);
  return 'signed in';
});
fluid.app.get('guarded', '/guarded', requireUser, () => 'guarded');
announce(await fluid.listen(0, '127.0.0.1'));
