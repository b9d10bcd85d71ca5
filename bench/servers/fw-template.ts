/** The kernel serving `GET /page`: `ctx.render('list.html', …)` from the project at argv[2]. */
import { Fluid } from '@fw/kernel';
import { announce } from '../lib/server.ts';
import { PAGE_DATA } from './page.ts';

const fluid = new Fluid({ root: process.argv[2] ?? '.', env: {} });
fluid.app.get('page', '/page', (ctx) => ctx.render('list.html', PAGE_DATA));
announce(await fluid.listen(0, '127.0.0.1'));
