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
