/**
 * Index manipulation (the reference's `manipulate_index`): what the framework does to a Vite
 * surface's `index.html` before serving it.
 *
 * - Debug: every root-relative `src`/`href` is rewritten to the dev-server proxy
 *   (`/vite-dev/<namespace>/...`, or `/vite-dev/<namespace>/public/...` for a file in the
 *   workspace's `public/`), `@vite/client` is injected, and for React the refresh preamble.
 * - Always: the theme (Tailwind) stylesheet link and every registered source go into `<head>`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Where the shared dev server is proxied (debug only). */
export const VITE_DEV_PREFIX = '/vite-dev';

/** What `manipulateIndex` needs to know about the surface. */
export interface IndexOptions {
  /** Rewrite for the dev server (debug) or serve the build as it is (production). */
  debug: boolean;
  /** The workspace folder relative to the project root, e.g. `fluid/frontend`. */
  namespace: string;
  /** The workspace folder (absolute), to find files of `public/`. */
  workspace: string;
  /** The surface's UI framework (`react` gets the refresh preamble). */
  framework?: string | undefined;
  /** URL of the theme stylesheet (compiled Tailwind), when there is one. */
  themeHref?: string | undefined;
  /** The registered sources, already rendered HTML. */
  sources?: string | undefined;
}

/** The React refresh preamble `@vitejs/plugin-react` expects before any component module. */
export function reactPreamble(prefix: string = VITE_DEV_PREFIX): string {
  return [
    '<script type="module">',
    `import RefreshRuntime from "${prefix}/@react-refresh";`,
    'RefreshRuntime.injectIntoGlobalHook(window);',
    'window.$RefreshReg$ = () => {};',
    'window.$RefreshSig$ = () => (type) => type;',
    'window.__vite_plugin_react_preamble_installed__ = true;',
    '</script>',
  ].join('\n');
}

// Root-relative (`/src/main.ts`) and explicitly relative (`./src/index.css`) values: both name a
// workspace file, which Vite resolves from the workspace's index.html in a build.
const ATTRIBUTE = /(\s(?:src|href)\s*=\s*)(["'])((?:\/(?!\/)|\.\/)[^"']*)\2/gi;

/** Rewrites root-relative and `./`-relative `src`/`href` values to the dev-server proxy. */
export function rewriteForDev(html: string, namespace: string, workspace: string): string {
  return html.replace(ATTRIBUTE, (_m, lead: string, quote: string, value: string) => {
    if (value.startsWith(VITE_DEV_PREFIX + '/')) return `${lead}${quote}${value}${quote}`;
    const url = value.startsWith('./') ? value.slice(1) : value;
    const path = url.split(/[?#]/)[0] ?? url;
    const inPublic = existsSync(join(workspace, 'public', decodeSafe(path)));
    return `${lead}${quote}${VITE_DEV_PREFIX}/${namespace}${inPublic ? '/public' : ''}${url}${quote}`;
  });
}

function decodeSafe(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Inserts `snippet` right before `</head>` (or at the top when the page has no head). */
export function insertInHead(html: string, snippet: string): string {
  if (!snippet) return html;
  const at = html.search(/<\/head\s*>/i);
  if (at >= 0) return html.slice(0, at) + snippet + '\n' + html.slice(at);
  return snippet + '\n' + html;
}

/** Applies every manipulation to an index page. */
export function manipulateIndex(html: string, options: IndexOptions): string {
  let out = html;
  const head: string[] = [];
  if (options.debug) {
    out = rewriteForDev(out, options.namespace, options.workspace);
    if (options.framework === 'react') head.push(reactPreamble());
    head.push(`<script type="module" src="${VITE_DEV_PREFIX}/@vite/client"></script>`);
  }
  if (options.themeHref) head.push(`<link rel="stylesheet" href="${options.themeHref}">`);
  if (options.sources) head.push(options.sources);
  return insertInHead(out, head.join('\n'));
}
