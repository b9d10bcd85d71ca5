import { HTTP_METHODS } from '../../codemods/routes.js';
import type { FwRouteAction } from '../api.js';
import { additiveQuestion, nameQuestion, type Builtin } from '../builtin.js';
import { invalidName, kebabCase, tsString } from '../names.js';

/** A path on a router: `/`, `/users`, `/users/:id`. */
export const PATH_QUESTION_CHECK = (value: unknown): true | string =>
  typeof value === 'string' && /^\/[A-Za-z0-9_\-.~/:*{}]*$/.test(value) ? true : 'a path starts with "/" and holds only URL path characters (parameters as :name)';

/** The parameters of a route path: `/users/:id/files/*rest` → `id`, `rest`. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
}

/** `fw make route`: a named route answering JSON, by the `fw:route` action. */
export const route: Builtin = {
  name: 'route',
  description: "a named route in fluid/app.ts, or in an Additive's api.ts/app.ts",
  examples: ['npx fw make route users', 'npx fw make route user --path /users/:id', 'npx fw make route publish --method post --router app', 'npx fw make route posts --additive blog'],
  prompts: (env) => [
    nameQuestion('Route name', invalidName),
    { type: 'list', name: 'method', message: 'HTTP method', choices: [...HTTP_METHODS], default: 'get' },
    {
      type: 'list',
      name: 'router',
      message: 'Router',
      choices: [
        { name: 'api: JSON under /api', value: 'api' },
        { name: 'app: under /', value: 'app' },
      ],
      default: 'api',
    },
    { type: 'input', name: 'path', message: 'Path on its router', default: (a) => `/${kebabCase(String(a.name))}`, validate: PATH_QUESTION_CHECK },
    additiveQuestion(env, 'route'),
  ],
  async actions(answers) {
    const name = String(answers.name);
    const additive = typeof answers.additive === 'string' && answers.additive !== '' ? answers.additive : undefined;
    const router = answers.router === 'app' ? 'app' : 'api';
    const path = String(answers.path);
    const method = String(answers.method);
    const full = additive ? `${additive}.${name}` : name;
    const params = pathParams(path);
    // The handler answers the route's name and parameters as JSON: a real answer to build on.
    const fields = [`route: ${tsString(full)}`, ...params.map((p) => `${p}: ctx.params.${p}`)].join(', ');
    const action: FwRouteAction = {
      type: 'fw:route',
      name,
      method: method as FwRouteAction['method'],
      router,
      path,
      handler: params.length > 0 ? `(ctx) => ({ ${fields} })` : `() => ({ ${fields} })`,
      comment: `${method.toUpperCase()} ${router === 'api' ? '/api' : ''}${additive ? `/${additive}` : ''}${path}: answers JSON (a returned object is sent as JSON).`,
      ...(additive ? { additive } : {}),
    };
    return [action];
  },
};
