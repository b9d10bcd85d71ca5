/** The session's user on websocket upgrades: guards such as `requireUser.check` refuse before the socket exists. */
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { requireAdmin, requireUser, type User } from '@fw/kernel/auth';
import { cleanupProjects } from '../kernel/helpers.js';
import { authApp, client, USERS } from './helpers.js';

afterAll(() => cleanupProjects());

function connect(url: string, cookie?: string): Promise<{ status: number; message?: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers: cookie ? { Cookie: cookie } : {} });
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.on('message', (data) => {
      resolve({ status: 101, message: data.toString() });
      ws.close();
    });
    ws.on('error', () => undefined);
  });
}

describe('websocket upgrades', () => {
  it('see the signed-in user; anonymous and unverified upgrades are refused by the guards', async () => {
    const { fluid } = authApp();
    fluid.ws.route('me', '/me', (socket, ctx) => socket.send(String((ctx.state.user as User).id)), { guards: [requireUser.check] });
    fluid.ws.route('admin', '/admin', (socket) => socket.send('admin'), { guards: [requireAdmin.check] });
    const c = await client(fluid);
    const wsBase = c.base.replace('http:', 'ws:');
    try {
      expect((await connect(`${wsBase}/ws/me`)).status).toBe(401);
      await c.signIn(USERS.unverified!);
      const cookie = () => [...c.jar].map(([k, v]) => `${k}=${v}`).join('; ');
      expect(await connect(`${wsBase}/ws/me`, cookie())).toEqual({ status: 101, message: String(USERS.unverified!.id) });
      expect((await connect(`${wsBase}/ws/admin`, cookie())).status).toBe(401); // EMAIL_NOT_VERIFIED
      await c.signIn(USERS.admin!);
      expect(await connect(`${wsBase}/ws/admin`, cookie())).toEqual({ status: 101, message: 'admin' });
      const forged = cookie().replace(/fw\.sid\.sig=[^;]+/, 'fw.sid.sig=AAAA');
      expect((await connect(`${wsBase}/ws/me`, forged)).status).toBe(401);
    } finally {
      await fluid.close();
    }
  });
});
