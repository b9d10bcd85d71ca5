// @ts-check
/**
 * Boot timing, kernel alone: `new Fluid` on the project at argv[2] (default config), a home
 * route, listen on 127.0.0.1:argv[3]. Plain JavaScript on purpose: Node's type stripping costs
 * about 100 ms at start-up here, which would swamp the figure being measured.
 */
import { Fluid } from '@fw/kernel';

const [root = '.', port = '0'] = process.argv.slice(2);
const fluid = new Fluid({ root, env: {} });
fluid.app.get('home', '/', () => 'home');
await fluid.listen(Number(port), '127.0.0.1');
