/**
 * Templates: a kernel route rendering a page (`ctx.render`: lookup across the template folders,
 * cached compile, Markup) against Koa + @koa/router + handlebars rendering the same page, over
 * HTTP; and `fluid.render()` against raw handlebars in this process (the same compiled output).
 *
 *   npm run bench -- templates    # BENCH_ROUNDS=5 BENCH_SECONDS=2
 */
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { Additive, Fluid } from '@fw/kernel';
import { compareHttp, httpSettings } from './lib/http-compare.ts';
import { compareOps } from './lib/micro.ts';
import { kernelProject } from './lib/project.ts';
import { report } from './lib/report.ts';
import { startServer, stopAll, type RunningServer } from './lib/server.ts';
import { BENCH_DIR, knob, rounds } from './lib/settings.ts';
import { PAGE_DATA, PAGE_TEMPLATE } from './servers/page.ts';

const ROUNDS = rounds(5);
const project = kernelProject({}, { 'fluid/templates/list.html': PAGE_TEMPLATE });
const servers: RunningServer[] = [];
try {
  const [fw, koa] = await Promise.all([
    startServer(join(BENCH_DIR, 'servers', 'fw-template.ts'), [project], { name: 'fw kernel' }),
    startServer(join(BENCH_DIR, 'servers', 'koa-template.ts'), [], { name: 'Koa + handlebars' }),
  ]);
  servers.push(fw, koa);
  const http = await compareHttp(
    'templates',
    [
      {
        name: 'template route',
        fw: { label: 'fw kernel ctx.render', server: fw, path: '/page' },
        baseline: { label: 'Koa + @koa/router + handlebars', server: koa, path: '/page' },
      },
    ],
    { rounds: ROUNDS },
  );

  // In-process: the template sits in an Additive's folder, found after a miss in the app's.
  const local = kernelProject({}, { 'blog/templates/list.html': PAGE_TEMPLATE });
  const fluid = new Fluid({ root: local, env: {} });
  fluid.additive(new Additive('blog', { root: join(local, 'blog') }));
  const raw = Handlebars.create().compile(PAGE_TEMPLATE);
  if (fluid.render('list.html', PAGE_DATA).toString() !== raw(PAGE_DATA)) throw new Error('fluid.render and handlebars render different bytes');
  const render = await compareOps(
    'templates',
    [
      {
        name: 'render in process',
        fw: { label: 'fluid.render (lookup + cache + Markup)', run: () => fluid.render('list.html', PAGE_DATA) },
        baseline: { label: 'raw handlebars (compiled)', run: () => raw(PAGE_DATA) },
        ops: knob('BENCH_RENDERS', 20_000, 2_000),
      },
    ],
    { rounds: ROUNDS },
  );
  report('Templates', `${httpSettings(ROUNDS)}; render: ${ROUNDS} interleaved rounds in one process`, [...http, ...render]);
} finally {
  await stopAll(servers);
}
