/** Shared helpers for the auth tests: an app with users in every state and a cookie-keeping client. */
import { Fluid } from '@fw/kernel';
import { installAuth, signIn, type Auth, type AuthOptions, type User, type UserService } from '@fw/kernel/auth';
import { makeProject, memoryLogger, start, type ProjectSpec } from '../kernel/helpers.js';

/** A test user. */
export interface TestUser extends User {
  readonly id: number;
  readonly twofa?: boolean;
  readonly admin?: boolean;
  readonly roles?: string[];
  readonly permissions?: string[];
}

/** Every user state the guard table covers (anonymous is "no sign-in"). */
export const USERS: Record<string, TestUser> = {
  unverified: { id: 1, email: 'u@example.test', emailVerified: false },
  noEmail: { id: 2, email: null, emailVerified: true },
  verified: { id: 3, email: 'v@example.test', emailVerified: true },
  twofa: { id: 4, email: 't@example.test', emailVerified: true, twofa: true },
  admin: { id: 5, email: 'a@example.test', emailVerified: true, admin: true },
  role: { id: 6, email: 'r@example.test', emailVerified: true, roles: ['editor'] },
  permission: { id: 7, email: 'p@example.test', emailVerified: true, permissions: ['publish'] },
  unverifiedAdmin: { id: 8, email: 'ua@example.test', emailVerified: false, admin: true, roles: ['editor'], permissions: ['publish'] },
};

/** A `UserService` over `USERS`, counting lookups. */
export function testUsers(): UserService<TestUser> & { lookups: number } {
  const byId = new Map(Object.values(USERS).map((u) => [String(u.id), u]));
  return {
    lookups: 0,
    findById(id) {
      this.lookups++;
      return byId.get(id);
    },
    emailVerified: (u) => u.emailVerified,
    has2fa: (u) => u.twofa === true,
    isAdmin: (u) => u.admin === true,
    roles: (u) => u.roles ?? [],
    permissions: (u) => u.permissions ?? [],
  };
}

/** An app with auth installed and a `GET /login/:id` route that signs the user in. */
export function authApp(
  spec: ProjectSpec = {},
  root?: string,
  options: Partial<AuthOptions<TestUser>> = {},
): { fluid: Fluid; auth: Auth<TestUser>; root: string } {
  const dir = root ?? makeProject({ ...spec, config: { CACHE_TYPE: 'memory', ...spec.config } });
  const fluid = new Fluid({ root: dir, env: {}, logger: memoryLogger() });
  const auth = installAuth(fluid, { users: testUsers(), ...options });
  fluid.app.get('login', '/login/:id', async (ctx) => {
    const user = await auth.users.findById(ctx.params.id!);
    if (!user) return { error: 'no such user' };
    await signIn(ctx, user);
    return { signedIn: user.id };
  });
  return { fluid, auth, root: dir };
}

/** Stores the cookies `res` sets in `jar` (name → value) and drops the ones it clears. */
export function keepCookies(jar: Map<string, string>, res: Response): void {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
}

/** A fetch client that keeps cookies (name → value) between requests. */
export class Client {
  readonly jar = new Map<string, string>();
  constructor(readonly base: string) {}

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.jar.size > 0 && !headers.has('Cookie')) headers.set('Cookie', [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(this.base + path, { redirect: 'manual', ...init, headers });
    keepCookies(this.jar, res);
    return res;
  }

  /** Signs in as `user` through `/login/:id`. */
  async signIn(user: TestUser): Promise<void> {
    const res = await this.fetch(`/login/${user.id}`);
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  }
}

/** Starts `fluid` and gives a client for it. */
export async function client(fluid: Fluid): Promise<Client> {
  return new Client(await start(fluid));
}
