/**
 * The kernel serving `GET /hello` → `{"hello":"world"}` from the project at argv[2] (default
 * config from its fw.json), with argv[3] Additives registered (each with one route of its own).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Additive, Fluid } from '@fw/kernel';
import { announce } from '../lib/server.ts';

const [root = '.', additives = '0'] = process.argv.slice(2);
const fluid = new Fluid({ root, env: {} });
fluid.app.get('hello', '/hello', () => ({ hello: 'world' }));
for (let i = 0; i < Number(additives); i++) {
  const dir = join(root, 'additives', `a${i}`);
  mkdirSync(dir, { recursive: true });
  const additive = new Additive(`a${i}`, { root: dir });
  additive.app.get('index', '/', () => ({ additive: i }));
  fluid.additive(additive);
}
announce(await fluid.listen(0, '127.0.0.1'));
