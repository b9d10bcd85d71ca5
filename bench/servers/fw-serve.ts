/**
 * The kernel's production entry: `serve()` (what `npm start` runs) serving `GET /hello` →
 * `{"hello":"world"}` from the project at argv[2] with argv[3] worker processes (node:cluster
 * when above 1; each worker runs this script again). Prints `listening <port>` once every
 * worker serves.
 */
import { Fluid, serve } from '@fw/kernel';

const [root = '.', workers = '1'] = process.argv.slice(2);
const fluid = new Fluid({ root, env: {} });
fluid.app.get('hello', '/hello', () => ({ hello: 'world' }));
await serve(fluid, {
  workers: Number(workers),
  port: 0,
  host: '127.0.0.1',
  print: (line) => {
    const port = / serving at http:\/\/127\.0\.0\.1:(\d+)/.exec(line)?.[1];
    if (port) process.stdout.write(`listening ${port}\n`);
  },
});
