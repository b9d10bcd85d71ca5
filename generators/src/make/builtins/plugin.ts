import { nameQuestion, type Builtin } from '../builtin.js';
import { camelCase, invalidName, kebabCase, pascalCase } from '../names.js';

/** The plugins `Fluid` has built in: a plugin name is unique per app. */
const KERNEL_PLUGINS = new Set(['events', 'sockets', 'frontend', 'i18n', 'limits', 'mail', 'cache', 'auth']);

/**
 * Fields Koa's context (its own, and those it delegates to its request and response) and fw's
 * already have: a plugin's field must be new, since its `Object.defineProperty` would shadow the
 * method the kernel calls (`ctx.accepts` for every error page) or its declaration would clash with
 * the kernel's (`ctx.requestId`).
 */
const CONTEXT_FIELDS = new Set([
  'app', 'req', 'res', 'request', 'response', 'state', 'cookies', 'body', 'status', 'message', 'method', 'url', 'originalUrl',
  'path', 'query', 'querystring', 'headers', 'header', 'host', 'hostname', 'href', 'origin', 'protocol', 'secure', 'ip', 'ips',
  'type', 'length', 'fresh', 'stale', 'socket', 'accept', 'respond', 'etag', 'lastModified', 'accepts', 'acceptsCharsets',
  'acceptsEncodings', 'acceptsLanguages', 'append', 'assert', 'attachment', 'back', 'flushHeaders', 'get', 'has', 'headerSent',
  'idempotent', 'inspect', 'is', 'onerror', 'redirect', 'remove', 'search', 'set', 'subdomains', 'throw', 'toJSON', 'vary', 'writable',
  'fluid', 'render', 'urlFor', 'clientAddress', 'params', 'requestId', 'locale', 'i18n', 'session', 'user', 'csrfToken',
]);

function invalidPluginName(name: string): string | undefined {
  const invalid = invalidName(name);
  if (invalid) return invalid;
  if (KERNEL_PLUGINS.has(kebabCase(name))) return `"${kebabCase(name)}" is a plugin of the kernel already: choose another name`;
  if (CONTEXT_FIELDS.has(camelCase(name))) return `ctx.${camelCase(name)} exists already (Koa's or fw's): choose another name`;
  return undefined;
}

/**
 * `fw make plugin`: an app plugin `fluid/plugins/<name>.ts` on the kernel's plugin contract, with
 * a per-request context field added by declaration merging, registered in `fluid/app.ts` with
 * `fluid.plugin(<name>())`.
 */
export const plugin: Builtin = {
  name: 'plugin',
  description: 'an app plugin in fluid/plugins/<name>.ts with its own ctx field, registered with fluid.plugin()',
  examples: ['npx fw make plugin request-timer'],
  prompts: () => [nameQuestion('Plugin name', invalidPluginName)],
  async actions(answers) {
    const name = kebabCase(String(answers.name));
    const factory = camelCase(name);
    return [
      {
        type: 'fw:add',
        path: `fluid/plugins/${name}.ts`,
        blueprint: 'plugin/plugin.ts.hbs',
        data: { name, file: name, factory, field: factory, state: `${pascalCase(name)}State` },
      },
      { type: 'fw:register', from: `./plugins/${name}.js`, imports: [factory], statement: `fluid.plugin(${factory}());` },
    ];
  },
};
