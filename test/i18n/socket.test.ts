/** `/ws/i18n` with real `ws` clients: cache and translate in the connection's negotiated locale. */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Fluid } from '@fw/kernel';
import { cleanupProjects, start } from '../kernel/helpers.js';
import { makeI18nFluid } from './fixture.js';

let fluid: Fluid;
let base: string;

beforeAll(async () => {
  fluid = makeI18nFluid();
  base = (await start(fluid)).replace('http:', 'ws:');
});
afterAll(async () => {
  await fluid.close();
  cleanupProjects();
});

interface Client {
  ask(frame: unknown): Promise<Record<string, unknown>>;
  raw(data: string | Buffer): Promise<Record<string, unknown>>;
  close(): void;
}

async function connect(query = '', headers: Record<string, string> = {}): Promise<Client> {
  const ws = new WebSocket(`${base}/ws/i18n${query}`, { headers });
  await once(ws, 'open');
  const next = () => once(ws, 'message').then(([data]) => JSON.parse(String(data)) as Record<string, unknown>);
  return {
    ask: (frame) => {
      const answer = next();
      ws.send(JSON.stringify(frame));
      return answer;
    },
    raw: (data) => {
      const answer = next();
      ws.send(data);
      return answer;
    },
    close: () => ws.close(),
  };
}

describe('/ws/i18n', () => {
  it('cache answers the merged catalog of the connection locale (?lang=de)', async () => {
    const c = await connect('?lang=de');
    const answer = await c.ask({ id: 1, action: 'cache' });
    expect(answer['id']).toBe(1);
    expect(answer['ok']).toBe(true);
    const data = answer['data'] as { locale: string; messages: Record<string, string[]>; plurals: Record<string, number> };
    expect(data.locale).toBe('de');
    expect(data.messages['Post']).toEqual(['Beitrag']); // Additive
    expect(data.messages['Save']).toEqual(['Save']); // Additive wins over the app's "Speichern"
    expect(data.messages['door\u0004Open']).toEqual(['Aufmachen']); // app, with context
    expect(data.messages['Not Found']).toEqual(['Nicht gefunden']); // framework
    expect(data.plurals).toEqual({ one: 0, other: 1 });
    c.close();
  });

  it('translate uses the connection locale, not the default (Accept-Language: pl)', async () => {
    const c = await connect('', { 'accept-language': 'pl;q=0.9, fr' });
    expect(await c.ask({ id: 'a', action: 'translate', fn: 'gettext', args: ['Hello, %(name)s!'], vars: { name: 'Ada' } })).toEqual({
      id: 'a',
      ok: true,
      data: 'Cześć, Ada!',
    });
    expect((await c.ask({ action: 'translate', fn: 'ngettext', args: ['%(num)d file', '%(num)d files', 5] }))['data']).toBe('5 plików');
    expect((await c.ask({ action: 'translate', fn: 'pgettext', args: ['door', 'Open'] }))['data']).toBe('Otwórz drzwi');
    expect((await c.ask({ action: 'translate', fn: 'npgettext', args: ['inbox', '%(num)d message', '%(num)d messages', 1] }))['data']).toBe(
      '1 wiadomość',
    );
    const cache = (await c.ask({ action: 'cache' }))['data'] as { locale: string; plurals: Record<string, number> };
    expect(cache.locale).toBe('pl');
    expect(cache.plurals).toEqual({ one: 0, few: 1, many: 2, other: 2 }); // "other" (fractions): the last form
    c.close();
  });

  it('bad frames get an error answer naming the problem; the socket stays usable', async () => {
    const c = await connect('?lang=de');
    expect(await c.raw('42')).toEqual({ error: 'Expected a JSON object message.' });
    expect(await c.raw('{nope')).toEqual({ error: 'Expected a JSON object message, got invalid JSON.' });
    expect(await c.raw(Buffer.from('{}'))).toMatchObject({ error: expect.stringMatching(/binary|JSON object/) });
    expect(await c.ask({ id: 3, action: 'shout' })).toEqual({ id: 3, error: 'Unknown action "shout": expected "cache" or "translate".' });
    expect(await c.ask({ id: 4, action: 'translate', fn: 'pgettext', args: ['Open'] })).toEqual({
      id: 4,
      error: 'translate: pgettext takes "args" [string, string], got ["Open"].',
    });
    expect(await c.ask({ id: 5, action: 'translate', fn: 'ngettext', args: ['a', 'b', 'many'] })).toEqual({
      id: 5,
      error: 'translate: ngettext args[2] must be a number, got "many".',
    });
    expect(await c.ask({ id: 6, action: 'translate', fn: 'eval', args: [] })).toMatchObject({ id: 6, error: expect.stringContaining('"fn" must be one of') });
    expect((await c.ask({ action: 'translate', fn: 'gettext', args: ['Post'] }))['data']).toBe('Beitrag');
    c.close();
  });
});
