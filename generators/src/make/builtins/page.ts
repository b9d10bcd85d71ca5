import { servesViteIndex, VITE_APP_ICON } from '../../additive/render.js';
import type { FwAddAction, FwRouteAction } from '../api.js';
import { additiveQuestion, nameQuestion, type Builtin } from '../builtin.js';
import { invalidName, kebabCase, sentenceCase, tsString } from '../names.js';
import { PATH_QUESTION_CHECK } from './route.js';

/** Text that goes into a template or a string as is: no quotes to break out of, no Handlebars. */
export const plainText = (what: string) => (value: unknown): true | string =>
  typeof value === 'string' && value.trim() !== '' && !/[{}\\<>]/.test(value) ? true : `the ${what} must be plain text, without { } < > or \\`;

/** The app's icon, which its template home page links (the project blueprint's `fluid/static/favicon.svg`). */
const APP_ICON = 'fluid/static/favicon.svg';
/** The icon of an app whose Vite surface serves `/` (create-vite's), served at `VITE_APP_ICON` in both modes. */
const VITE_ICON = 'fluid/frontend/public/favicon.svg';

/** The main app's stylesheet, which its template pages link (the project blueprint's, or {@link page}'s). */
const APP_STYLESHEET = 'fluid/static/app.css';

/** `fw make page`: a template and the `app` route that renders it (`fw:route` + `fw:add`). */
export const page: Builtin = {
  name: 'page',
  description: "a page: a template in fluid/templates/ or an Additive's, and the route that renders it",
  examples: ['npx fw make page about', 'npx fw make page contact-us --title "Contact us" --path /contact', 'npx fw make page archive --additive blog'],
  prompts: (env) => [
    nameQuestion('Page name', invalidName),
    { type: 'input', name: 'title', message: 'Page title', default: (a) => sentenceCase(String(a.name)), validate: plainText('title') },
    { type: 'input', name: 'path', message: 'URL path (on the app router)', default: (a) => `/${kebabCase(String(a.name))}`, validate: PATH_QUESTION_CHECK },
    additiveQuestion(env, 'page'),
  ],
  async actions(answers, fw) {
    const name = String(answers.name);
    const title = String(answers.title);
    const additive = typeof answers.additive === 'string' && answers.additive !== '' ? answers.additive : undefined;
    const file = kebabCase(name);
    const template = additive ? `${additive}/${file}.html` : `${file}.html`;
    const target = additive ? `additives/${additive}/templates/${template}` : `fluid/templates/${template}`;
    const stylesheet = additive ? `${additive}.css` : 'app.css';
    const stylesheetFile = additive ? `additives/${additive}/static/${stylesheet}` : APP_STYLESHEET;
    // An app whose Vite surface serves `/` has no fluid/static/app.css (the project blueprint's is
    // the template home page's): its pages get the same stylesheet, written once (never over yours,
    // and not again once you deleted it, unless --force).
    const viteIndex = !additive && servesViteIndex(fw.config.config.APP_FRONTEND);
    const writeStylesheet = viteIndex && !(await fw.exists(APP_STYLESHEET)) && (fw.force || !(await fw.deleted(APP_STYLESHEET)));
    const routes = await fw.routes();
    const home = routes.find((r) => r.name === (additive ? `${additive}.index` : 'home') && (r.method === 'GET' || r.method === 'ALL'));
    const route: FwRouteAction = {
      type: 'fw:route',
      name,
      router: 'app',
      path: String(answers.path),
      handler: `(ctx) => ctx.render(${tsString(template)}, { title: ${tsString(title)} })`,
      comment: `The ${title} page: ${target}.`,
      templates: [template],
      ...(additive ? { additive } : {}),
    };
    const render: FwAddAction = {
      type: 'fw:add',
      path: target,
      blueprint: 'page/page.html.hbs',
      data: {
        // The kernel's template helpers: {{static}} and {{url_for}} follow the app's prefixes and routes.
        // The app's icon, linked as its home page links it (a Vite surface serving its own index has its workspace's).
        icon: (await fw.exists(APP_ICON)) ? "{{static 'favicon.svg'}}" : (await fw.exists(VITE_ICON)) ? VITE_APP_ICON : false,
        stylesheet: writeStylesheet || (await fw.exists(stylesheetFile)) ? `{{static '${stylesheet}'${additive ? ` additive='${additive}'` : ''}}}` : false,
        // The home page: the app's `home` route, or the index a Vite surface serves at `/` (the kernel's `frontend.index`).
        home: home ? `{{url_for '${home.name}'}}` : viteIndex ? "{{url_for 'frontend.index'}}" : false,
      },
    };
    if (!writeStylesheet) return [route, render];
    const css: FwAddAction = { type: 'fw:add', path: APP_STYLESHEET, blueprint: 'page/app.css.hbs', data: {}, skipIfExists: true };
    return [route, render, css];
  },
};
