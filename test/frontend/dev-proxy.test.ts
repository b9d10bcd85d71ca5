/**
 * The debug proxy's reach (issue 17 §1): `/vite-dev` serves the frontend workspaces and the
 * installed packages, nothing else of the project. The probes that leaked before (the ini with
 * SECRET_KEY, `@fs` to the root, fw.json, fluid/app.ts, .fw/record.json, .gitignore) and a
 * traversal table sent as raw request lines (no client-side URL normalisation) all get 404
 * without a byte of the files; the surface itself still works.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fluid } from '@fw/kernel';
import { memoryLogger, start } from '../kernel/helpers.js';
import { cleanupViteProjects, viteProject } from './helpers.js';

const SECRET = 'proxy-probe-secret-0123456789';
let fluid: Fluid;
let base: string;
let root: string;

beforeAll(async () => {
  root = viteProject({ config: { DEBUG: true }, surfaces: [{ frontend: { type: 'vite', framework: 'none' } }] });
  writeFileSync(path.join(root, 'app_configs/demo.ini'), `SECRET_KEY = ${SECRET}\n`);
  mkdirSync(path.join(root, 'fluid'), { recursive: true });
  mkdirSync(path.join(root, '.fw'), { recursive: true });
  writeFileSync(path.join(root, 'fluid/app.ts'), `export const secret = '${SECRET}';\n`);
  writeFileSync(path.join(root, '.fw/record.json'), JSON.stringify({ secret: SECRET }));
  writeFileSync(path.join(root, 'fluid/frontend/.env'), `VITE_SECRET=${SECRET}\n`);
  writeFileSync(path.join(root, '.env'), `SECRET_KEY=${SECRET}\n`);
  // Files of the root that no deny-list name covers: only the workspace rule keeps them out.
  mkdirSync(path.join(root, 'scripts'), { recursive: true });
  writeFileSync(path.join(root, 'scripts/seed.js'), `export const secret = '${SECRET}';\n`);
  writeFileSync(path.join(root, 'eslint.config.js'), `export const secret = '${SECRET}';\n`);
  // Links a developer might make in a workspace: by their names they pass the deny list.
  symlinkSync('../../../fw.json', path.join(root, 'fluid/frontend/src/settings.json'));
  symlinkSync('../../app.ts', path.join(root, 'fluid/frontend/src/app-link.js'));
  symlinkSync('../../../app_configs', path.join(root, 'fluid/frontend/src/configs'));
  symlinkSync('main.js', path.join(root, 'fluid/frontend/src/entry.js'));
  fluid = new Fluid({ root, env: {}, logger: memoryLogger() });
  base = await start(fluid);
}, 60_000);

afterAll(async () => {
  await fluid?.close();
  cleanupViteProjects();
});

// {root} in a table entry stands for the project root (known once it is made).

/** GET with the request line exactly as given (Node sends `path` unnormalised). */
function raw(pathAndQuery: string): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: pathAndQuery, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('what the proxy still serves', () => {
  it.each([
    ['/vite-dev/@vite/client', 'HMRClient'],
    ['/vite-dev/fluid/frontend/src/main.js', 'import'],
    ['/vite-dev/fluid/frontend/src/main.js?raw', 'export default'],
    ['/vite-dev/fluid/frontend/public/favicon.svg', '<svg'],
    ['/vite-dev/fluid/frontend/src/entry.js?raw', 'export default'], // a link to a file of the workspace
    ['/vite-dev/@id/fluid/frontend/src/main.js?raw', 'export default'], // an id naming a workspace file
  ])('%s', async (url, text) => {
    const res = await raw(url);
    expect(res.status, res.body.slice(0, 300)).toBe(200);
    expect(res.body).toContain(text);
  });

  it('the index still renders through /vite-dev', async () => {
    const html = await (await fetch(`${base}/`)).text();
    expect(html).toContain('src="/vite-dev/fluid/frontend/src/main.js"');
  });
});

/** The first line of the answer to a websocket upgrade of `path`, once the server has closed or switched. */
function upgrade(path: string, protocol?: string): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let data = '';
    socket.on('data', (d: Buffer) => {
      data += d.toString();
      if (data.startsWith('HTTP/1.1 101 ')) socket.destroy(); // switched: that is the answer
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(data.split('\r\n')[0] ?? ''));
    const sub = protocol ? `Sec-WebSocket-Protocol: ${protocol}\r\n` : '';
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n` +
        `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n${sub}\r\n`,
    );
  });
}

describe('websocket upgrades', () => {
  it("Vite's HMR socket switches; an upgrade without its subprotocol is 400 and closed, not left open for ever", async () => {
    expect(await upgrade('/vite-dev/', 'vite-hmr')).toBe('HTTP/1.1 101 Switching Protocols');
    expect(await upgrade('/vite-dev/')).toBe('HTTP/1.1 400 Bad Request');
    expect(await upgrade('/vite-dev/?token=x', 'chat')).toBe('HTTP/1.1 400 Bad Request');
    expect(await upgrade('/vite-dev/app_configs/demo.ini', 'vite-hmr')).toBe('HTTP/1.1 404 Not Found');
  });
});

describe('the probes of issue 17', () => {
  it.each([
    '/vite-dev/app_configs/demo.ini',
    '/vite-dev/app_configs/demo.ini?raw',
    '/vite-dev/app_configs/demo.ini?import&raw',
    '/vite-dev/@fs{root}/app_configs/demo.ini',
    '/vite-dev/@fs{root}/fw.json',
    '/vite-dev/@fs{root}/.env',
    '/vite-dev/@fs/etc/passwd',
    '/vite-dev/fw.json',
    '/vite-dev/fluid/app.ts',
    '/vite-dev/.fw/record.json',
    '/vite-dev/.gitignore',
    '/vite-dev/.env',
    '/vite-dev/package.json',
    '/vite-dev/vite.config.js',
    '/vite-dev/fluid/frontend/.env',
    // Symlinks in a workspace are judged by their targets.
    '/vite-dev/fluid/frontend/src/settings.json',
    '/vite-dev/fluid/frontend/src/settings.json?raw',
    '/vite-dev/@fs{root}/fluid/frontend/src/settings.json',
    '/vite-dev/fluid/frontend/src/app-link.js?raw',
    '/vite-dev/fluid/frontend/src/configs/demo.ini?raw',
    // An /@id/ naming a file of the root is that file: before, these reached Vite, whose 403 page
    // told the file existed and printed the project's absolute path and allow list.
    '/vite-dev/@id/scripts/seed.js?raw',
    '/vite-dev/@id/scripts/seed.js?url',
    '/vite-dev/@id/eslint.config.js?raw',
    '/vite-dev/@id/eslint.config.js?import',
    '/vite-dev/@id/scripts/seed.js',
  ])('%s is 404', async (url) => {
    const res = await raw(url.replace('{root}', root));
    expect(res.status).toBe(404);
    expect(res.body).not.toContain(SECRET);
    expect(res.body).not.toContain(root);
  });
});

describe('traversal table', () => {
  const table = [
    '/vite-dev/fluid/frontend/../../app_configs/demo.ini',
    '/vite-dev/fluid/frontend/%2e%2e/%2e%2e/app_configs/demo.ini',
    '/vite-dev/fluid/frontend/%2E%2E/%2E%2E/app_configs/demo.ini',
    '/vite-dev/fluid/frontend/..%2f..%2fapp_configs%2fdemo.ini',
    '/vite-dev/fluid/frontend/%2e%2e%2f%2e%2e%2fapp_configs%2fdemo.ini',
    '/vite-dev/fluid/frontend/..\\..\\app_configs\\demo.ini',
    '/vite-dev/fluid/frontend/..%5c..%5capp_configs%5cdemo.ini',
    '/vite-dev/fluid/frontend/%252e%252e/%252e%252e/app_configs/demo.ini',
    '/vite-dev/fluid/frontend/%252e%252e%252f%252e%252e%252fapp_configs%252fdemo.ini',
    '/vite-dev/app_configs/demo.ini%00.js',
    '/vite-dev/fluid/frontend/src/main.js%00/../../../app_configs/demo.ini',
    '/vite-dev//app_configs/demo.ini',
    '/vite-dev/./app_configs/demo.ini',
    '/vite-dev/node_modules/../app_configs/demo.ini',
    '/vite-dev/node_modules/%2e%2e/app_configs/demo.ini',
    '/vite-dev/@fs{root}/fluid/frontend/../../app_configs/demo.ini',
    '/vite-dev/@fs{root}/fluid/frontend/%2e%2e/%2e%2e/app_configs/demo.ini',
    '/vite-dev/@fs/{root}/app_configs/demo.ini',
    '/vite-dev/@fs{root}/node_modules/../app_configs/demo.ini',
    '/vite-dev/@id/{root}/app_configs/demo.ini',
    '/vite-dev/@id//{root}/app_configs/demo.ini',
    '/vite-dev/@id{root}/app_configs/demo.ini',
    '/vite-dev/@vite/../app_configs/demo.ini',
    '/vite-dev/fluid/frontend/src/%2e%2e/%2e%2e/%2e%2e/.fw/record.json',
  ];

  it.each(table)('%s is 404 without the secret', async (url) => {
    const res = await raw(url.replace('{root}', root));
    expect(res.status).toBe(404);
    expect(res.body).not.toContain(SECRET);
  });
});
