import { Readable } from 'node:stream';
import Router from '@koa/router';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Additive, Markup, type Fluid, type FluidContextExtensions, type FluidState } from '@fw/kernel';
import { cleanupProjects, makeFluid, makeProject, start } from './helpers.js';

const open: Fluid[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((f) => f.close()));
});
afterAll(cleanupProjects);

function app(): Fluid {
  const f = makeFluid();
  open.push(f);
  return f;
}

function wsMessage(url: string, send?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on('open', () => send !== undefined && socket.send(send));
    socket.on('message', (data) => {
      resolve(String(data));
      socket.close();
    });
    socket.on('error', reject);
    socket.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
}

class Post {
  constructor(readonly id: number, readonly title: string) {}
  toJSON() {
    return { id: this.id, title: this.title, kind: 'post' };
  }
}

describe('app and api routers', () => {
  it('turns returned values into bodies', async () => {
    const f = app();
    f.app.get('html', '/html', () => '<p>hi</p>');
    f.app.get('text', '/text', () => 'plain words');
    f.app.get('markup', '/markup', () => new Markup('<b>bold</b>'));
    f.app.get('set', '/set', (ctx) => {
      ctx.status = 201;
      ctx.body = 'set directly';
    });
    f.app.get('stream', '/stream', () => Readable.from(['a', 'b']));
    f.api.get('json', '/items/:id', (ctx) => ({ id: ctx.params.id }));
    f.api.get('model', '/model', () => new Post(1, 'x'));
    const url = await start(f);
    let r = await fetch(`${url}/html`);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await r.text()).toBe('<p>hi</p>');
    r = await fetch(`${url}/text`);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
    r = await fetch(`${url}/markup`);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await r.text()).toBe('<b>bold</b>');
    r = await fetch(`${url}/set`);
    expect([r.status, await r.text()]).toEqual([201, 'set directly']);
    r = await fetch(`${url}/html`, { method: 'HEAD' });
    expect([r.status, r.headers.get('content-length'), await r.text()]).toEqual([200, '9', '']);
    expect(await (await fetch(`${url}/stream`)).text()).toBe('ab');
    expect(await (await fetch(`${url}/api/items/a%20b`)).json()).toEqual({ id: 'a b' });
    expect(await (await fetch(`${url}/api/model`)).json()).toEqual({ id: 1, title: 'x', kind: 'post' });
  });

  it('routes every method, and answers 405 with Allow for a known path', async () => {
    const f = app();
    f.api.post('create', '/things', () => ({ did: 'post' }));
    f.api.put('put', '/things/:id', () => ({ did: 'put' }));
    f.api.patch('patch', '/things/:id/p', () => ({ did: 'patch' }));
    f.api.delete('del', '/things/:id/d', () => ({ did: 'delete' }));
    f.api.all('any', '/any', (ctx) => ({ did: ctx.method }));
    const url = await start(f);
    expect(await (await fetch(`${url}/api/things`, { method: 'POST' })).json()).toEqual({ did: 'post' });
    expect(await (await fetch(`${url}/api/things/1`, { method: 'PUT' })).json()).toEqual({ did: 'put' });
    expect(await (await fetch(`${url}/api/things/1/p`, { method: 'PATCH' })).json()).toEqual({ did: 'patch' });
    expect(await (await fetch(`${url}/api/things/1/d`, { method: 'DELETE' })).json()).toEqual({ did: 'delete' });
    expect(await (await fetch(`${url}/api/any`, { method: 'PATCH' })).json()).toEqual({ did: 'PATCH' });
    const r = await fetch(`${url}/api/things`);
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toContain('POST');
    expect(await r.json()).toEqual({ error: 'Method Not Allowed' });
    const o = await fetch(`${url}/api/things/1`, { method: 'OPTIONS' });
    expect([o.status, o.headers.get('allow')]).toEqual([204, 'PUT']);
    const missing = await fetch(`${url}/api/nothing`, { method: 'OPTIONS' });
    expect(missing.status).toBe(404);
  });

  it('rejects bad route definitions with clear errors', () => {
    const f = app();
    f.app.get('home', '/', () => 'x');
    expect(() => f.app.get('home', '/again', () => 'x')).toThrow(/route name 'home' is already used/);
    expect(() => f.api.get('home', '/x', () => 'x')).toThrow(/Route name 'home' is already used by [A-Z,]+ \/ \(app\)/);
    expect(() => f.app.get('bad', 'nope', () => 'x')).toThrow(/path must be a string starting with '\/'/);
    expect(() => f.app.get('none', '/none')).toThrow(/no handler given/);
    expect(() => new Additive('api', { root: makeProject() })).toThrow(/api" is a path the kernel reserves/);
    expect(() => new Additive('Bad/Name', { root: makeProject() })).toThrow(/path separator/);
  });
});

describe('a plain @koa/router Router mounted with fluid.use', () => {
  it("answers its routes with the app's context and state, and its allowedMethods() answers 405/OPTIONS/501 for its paths only", async () => {
    const f = app();
    f.use(async (ctx, next) => {
      ctx.state['tenant'] = 'acme';
      await next();
    });
    const router = new Router<FluidState, FluidContextExtensions>({ prefix: '/koa' });
    router.get('/items/:id', (ctx) => {
      ctx.body = { id: ctx.params['id'], tenant: ctx.state['tenant'], client: ctx.clientAddress, home: ctx.urlFor('home') };
    });
    router.post('/items', (ctx) => {
      ctx.status = 201;
      ctx.body = { made: true };
    });
    f.use(router.routes());
    f.use(router.allowedMethods());
    f.app.get('home', '/', () => 'fw home');
    f.app.get('fw-only', '/fw/:id', (ctx) => ({ fw: ctx.params.id }));
    const url = await start(f);

    let r = await fetch(`${url}/koa/items/7`);
    expect([r.status, await r.json()]).toEqual([200, { id: '7', tenant: 'acme', client: '127.0.0.1', home: '/' }]);
    r = await fetch(`${url}/koa/items`, { method: 'POST' });
    expect([r.status, await r.json()]).toEqual([201, { made: true }]);
    // allowedMethods(): a method the path lacks is 405 with Allow, OPTIONS lists them, an unknown method is 501.
    r = await fetch(`${url}/koa/items/7`, { method: 'DELETE' });
    expect([r.status, r.headers.get('allow')]).toEqual([405, 'HEAD, GET']);
    r = await fetch(`${url}/koa/items`, { method: 'OPTIONS' });
    expect([r.status, r.headers.get('allow')]).toEqual([200, 'POST']);
    r = await fetch(`${url}/koa/items`, { method: 'PURGE' });
    expect(r.status).toBe(501);
    // The app's own routes, 405 and 404 answer as before.
    expect(await (await fetch(`${url}/`)).text()).toBe('fw home');
    expect(await (await fetch(`${url}/fw/3`)).json()).toEqual({ fw: '3' });
    r = await fetch(`${url}/fw/3`, { method: 'POST' });
    expect([r.status, r.headers.get('allow')?.split(', ').sort()]).toEqual([405, ['GET', 'HEAD']]);
    expect((await fetch(`${url}/koa/nothing`)).status).toBe(404);
  });
});

describe('Additives', () => {
  it('mounts api at /api/<name>, app at /<name>, ws at /ws/<name>, with prefixed route names', async () => {
    const f = app();
    const blog = new Additive('blog', { root: makeProject() });
    blog.app.get('index', '/', () => 'blog home');
    blog.api.get('posts', '/posts', () => [{ id: 1 }]);
    blog.ws.route('live', '/live', (socket) => socket.send('blog live'));
    f.additive(blog);
    const url = await start(f);
    expect(await (await fetch(`${url}/blog`)).text()).toBe('blog home');
    expect(await (await fetch(`${url}/api/blog/posts`)).json()).toEqual([{ id: 1 }]);
    expect(await wsMessage(`${url.replace('http', 'ws')}/ws/blog/live`)).toBe('blog live');
    expect(f.urlFor('blog.posts')).toBe('/api/blog/posts');
    expect(f.urlFor('blog.live')).toBe('/ws/blog/live');
    expect(() => f.additive(new Additive('blog', { root: makeProject() }))).toThrow(/already registered/);
  });

  it('matches its routes exactly as @koa/router does: case-insensitive prefix, whole segments only', async () => {
    const f = app();
    const blog = new Additive('blog', { root: makeProject() });
    blog.app.get('index', '/', () => 'blog home');
    blog.app.get('post', '/:slug', (ctx) => `post ${ctx.params.slug}`);
    blog.api.get('posts', '/posts', () => ({ from: 'blog api' }));
    f.additive(blog);
    f.app.get('blogger', '/blogger', () => 'app blogger');
    f.app.get('pinned', '/blog/pinned/:slug', (ctx) => `app pinned ${ctx.params.slug}`);
    f.app.get('deep', '/blogs/:a/:b', (ctx) => `app ${ctx.params.a}/${ctx.params.b}`);
    f.api.get('api-posts', '/posts', () => ({ from: 'app api' }));
    const url = await start(f);
    expect(await (await fetch(`${url}/blog/`)).text()).toBe('blog home');
    expect(await (await fetch(`${url}/BLOG/First`)).text()).toBe('post First');
    expect(await (await fetch(`${url}/blogger`)).text()).toBe('app blogger');
    expect((await fetch(`${url}/blogs/x`)).status).toBe(404);
    expect(await (await fetch(`${url}/blogs/x/y`)).text()).toBe('app x/y');
    // Under the Additive's prefix, what none of its routes match still reaches the app's.
    expect(await (await fetch(`${url}/blog/pinned/a`)).text()).toBe('app pinned a');
    expect(await (await fetch(`${url}/api/blog/posts`)).json()).toEqual({ from: 'blog api' });
    expect(await (await fetch(`${url}/API/Blog/posts`)).json()).toEqual({ from: 'blog api' });
    expect(await (await fetch(`${url}/api/posts`)).json()).toEqual({ from: 'app api' });
  });
});

describe('request hooks', () => {
  it("gives the app's afterRequest the real response, and lets beforeRequest answer early", async () => {
    const f = app();
    const seen: string[] = [];
    f.beforeRequest((ctx) => (ctx.path === '/blocked' ? { blocked: true } : undefined));
    f.afterRequest((response, ctx) => {
      seen.push(`${ctx.path} ${response.status} ${typeof response.body === 'string' ? response.body : JSON.stringify(response.body)}`);
      response.set('X-After', 'yes');
    });
    f.app.get('home', '/', () => 'home page');
    f.app.get('blocked', '/blocked', () => 'never');
    const url = await start(f);
    const r = await fetch(url);
    expect(r.headers.get('x-after')).toBe('yes');
    expect(await (await fetch(`${url}/blocked`)).json()).toEqual({ blocked: true });
    expect(seen).toEqual(['/ 200 home page', '/blocked 200 {"blocked":true}']);
  });

  it('runs arrival hooks (onRequest) in order before any middleware, outer included; one that throws answers 500', async () => {
    for (const outer of [false, true]) {
      const f = app();
      const seen: string[] = [];
      f.onRequest((ctx) => {
        seen.push(`hook 1 ${ctx.path}`);
        if (ctx.path === '/throw') throw new Error('hook failed');
      });
      f.onRequest(() => {
        seen.push('hook 2');
      });
      if (outer) {
        f.use((_ctx, next) => {
          seen.push('outer');
          return next();
        }, 'outer');
      }
      f.use((_ctx, next) => {
        seen.push('app');
        return next();
      });
      f.app.get('home', '/', () => 'home');
      f.app.get('throw', '/throw', () => 'never');
      const url = await start(f);
      expect(await (await fetch(url)).text()).toBe('home');
      expect(seen).toEqual(outer ? ['hook 1 /', 'hook 2', 'outer', 'app'] : ['hook 1 /', 'hook 2', 'app']);
      seen.length = 0;
      const failed = await fetch(`${url}/throw`);
      expect(failed.status, `outer middleware: ${outer}`).toBe(500);
      expect(seen).toEqual(['hook 1 /throw']);
      expect(() => f.onRequest(() => undefined)).toThrow(/onRequest/);
    }
  });

  it("gives an Additive's afterRequest the returned value (object, model, string) and uses its replacement", async () => {
    const f = app();
    const blog = new Additive('blog', { root: makeProject() });
    const received: unknown[] = [];
    blog.afterRequest((value) => {
      received.push(value);
      if (value instanceof Post) return { wrapped: value.title };
      if (typeof value === 'string') return value.toUpperCase();
      return undefined;
    });
    blog.api.get('obj', '/obj', () => ({ a: 1 }));
    blog.api.get('model', '/model', () => new Post(7, 'seven'));
    blog.app.get('str', '/str', () => 'shout');
    f.additive(blog);
    const url = await start(f);
    expect(await (await fetch(`${url}/api/blog/obj`)).json()).toEqual({ a: 1 });
    expect(await (await fetch(`${url}/api/blog/model`)).json()).toEqual({ wrapped: 'seven' });
    expect(await (await fetch(`${url}/blog/str`)).text()).toBe('SHOUT');
    expect(received[0]).toEqual({ a: 1 });
    expect(received[1]).toBeInstanceOf(Post);
    expect(received[2]).toBe('shout');
  });

  it("applies an Additive's hooks to its api and app routes only: not to ws, not to the app", async () => {
    const f = app();
    const blog = new Additive('blog', { root: makeProject() });
    const calls: string[] = [];
    blog.beforeRequest((ctx) => {
      calls.push(`before ${ctx.path}`);
      if (ctx.get('x-deny')) return { denied: true };
      return undefined;
    });
    blog.afterRequest(() => void calls.push('after'));
    blog.app.get('page', '/page', () => 'page');
    blog.ws.route('sock', '/sock', (socket, ctx) => socket.send(`sock ${ctx.path}`));
    f.app.get('home', '/', () => 'home');
    f.additive(blog);
    const url = await start(f);
    expect(await (await fetch(`${url}/blog/page`)).text()).toBe('page');
    expect(await (await fetch(`${url}/blog/page`, { headers: { 'x-deny': '1' } })).json()).toEqual({ denied: true });
    expect(await (await fetch(url)).text()).toBe('home');
    expect(await wsMessage(`${url.replace('http', 'ws')}/ws/blog/sock`)).toBe('sock /ws/blog/sock');
    expect(calls).toEqual(['before /blog/page', 'after', 'before /blog/page']);
  });
});

describe('websocket routes', () => {
  it('serves app sockets under /ws with params, and refuses unknown socket paths', async () => {
    const f = app();
    f.ws.route('echo', '/echo/:room', (socket, ctx) => {
      socket.on('message', (data) => socket.send(`${ctx.params.room}:${String(data)}`));
    });
    const url = (await start(f)).replace('http', 'ws');
    expect(await wsMessage(`${url}/ws/echo/lobby`, 'hello')).toBe('lobby:hello');
    await expect(wsMessage(`${url}/ws/nothing`)).rejects.toThrow(/HTTP 404/);
  });
});

describe('static mounts', () => {
  it('serves /static from fluid/static and /<additive>/static from the Additive, dotfiles hidden', async () => {
    const f = app();
    const root = makeProject({ files: { 'static/blog.css': 'blog{}', 'static/.secret': 'no' } });
    f.additive(new Additive('blog', { root }));
    const url = await start(f);
    const fs = await import('node:fs');
    const path = await import('node:path');
    fs.mkdirSync(path.join(f.root, 'fluid/static'), { recursive: true });
    fs.writeFileSync(path.join(f.root, 'fluid/static/app.css'), 'app{}');
    expect(await (await fetch(`${url}/static/app.css`)).text()).toBe('app{}');
    expect(await (await fetch(`${url}/blog/static/blog.css`)).text()).toBe('blog{}');
    expect((await fetch(`${url}/blog/static/.secret`)).status).toBe(404);
    expect((await fetch(`${url}/fluid/static/fw.css`)).status).toBe(200);
  });
});

describe('close() with open sockets', () => {
  it('closes open websockets (1001) and returns promptly', async () => {
    const f = makeFluid();
    f.ws.route('hold', '/hold', () => undefined);
    const url = (await start(f)).replace('http', 'ws');
    const socket = new WebSocket(`${url}/ws/hold`);
    await new Promise((resolve, reject) => {
      socket.on('open', resolve);
      socket.on('error', reject);
    });
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    const t0 = Date.now();
    await f.close();
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(await closed).toBe(1001);
  });
});
