/** installAuth: clear errors for bad setups; helpers; fluid.use() freezes at start. */
import { afterAll, describe, expect, it } from 'vitest';
import { Fluid, FrameworkException } from '@fw/kernel';
import { authOf, installAuth, requireUser } from '@fw/kernel/auth';
import { cleanupProjects, makeProject, memoryLogger, start } from '../kernel/helpers.js';
import { authApp, testUsers } from './helpers.js';

afterAll(() => cleanupProjects());

describe('installAuth', () => {
  it('needs a UserService, and installs once', () => {
    const fluid = new Fluid({ root: makeProject(), env: {}, logger: memoryLogger() });
    expect(() => installAuth(fluid, {} as never)).toThrow(/users must implement UserService/);
    installAuth(fluid, { users: testUsers() });
    expect(() => installAuth(fluid, { users: testUsers() })).toThrow(/already installed/);
  });

  it('refuses a misspelt option or a value that cannot work, naming it (a misspelt signInUrl was ignored in silence)', () => {
    const refused = (options: Record<string, unknown>): string => {
      const fluid = new Fluid({ root: makeProject(), env: {}, logger: memoryLogger() });
      try {
        installAuth(fluid, { users: testUsers(), ...options });
        return 'accepted';
      } catch (error) {
        expect(error).toBeInstanceOf(FrameworkException);
        return (error as Error).message;
      }
    };
    expect(refused({ signinUrl: '/sign-in' })).toBe('installAuth(fluid, options) / auth(options): unknown option signinUrl; did you mean signInUrl?');
    expect(refused({ loginUrl: '/sign-in' })).toMatch(/unknown option loginUrl; expected one of users, cache, sessionMaxAge, tokenMaxAge, cookieName, csrfCookieName, signInUrl$/);
    expect(refused({ sessionMaxAge: -1 })).toMatch(/sessionMaxAge must be a whole number of seconds, at least 1; got -1$/);
    expect(refused({ tokenMaxAge: 1.5 })).toMatch(/tokenMaxAge must be a whole number of seconds, at least 1; got 1\.5$/);
    expect(refused({ cookieName: 'my cookie' })).toMatch(/cookieName must be a cookie name .*; got "my cookie"$/);
    expect(refused({ signInUrl: 'sign-in' })).toMatch(/signInUrl must be a path such as '\/sign-in' \(or an http\(s\) URL\); got "sign-in"$/);
    expect(refused({ signInUrl: '//evil.example/x' })).toMatch(/signInUrl must be a path/);
    for (const ok of [{ signInUrl: '/sign-in' }, { signInUrl: 'https://id.example.com/login' }, { sessionMaxAge: 3600, tokenMaxAge: 600, cookieName: 'app.sid', csrfCookieName: 'app.csrf' }]) {
      expect(refused(ok)).toBe('accepted');
    }
  });

  it('a guard on an app without auth answers 500 and logs the missing installAuth', async () => {
    const logger = memoryLogger();
    const fluid = new Fluid({ root: makeProject(), env: {}, logger });
    fluid.app.get('x', '/x', requireUser, () => 'x');
    const base = await start(fluid);
    try {
      expect((await fetch(`${base}/x`)).status).toBe(500);
      expect(logger.lines.join('\n')).toMatch(/auth is not installed: call installAuth\(fluid, \{ users \}\)/);
      expect(() => authOf(fluid)).toThrow(FrameworkException);
    } finally {
      await fluid.close();
    }
  });

  it('fluid.use() is refused once the app has started', async () => {
    const { fluid } = authApp();
    await start(fluid);
    try {
      expect(() => fluid.use(async (_ctx, next) => next())).toThrow(/fluid\.use\(\): the app has started/);
    } finally {
      await fluid.close();
    }
  });

  it('{{csrf_token}} outside a request is a clear error', () => {
    const { fluid } = authApp({ files: { 'fluid/templates/t.html': '{{csrf_token}}' } });
    expect(() => fluid.render('t.html')).toThrow(/render only during a request/);
  });
});
