/**
 * Release, what a user's editor shows: TypeScript's LanguageService (what VS Code's tsserver runs),
 * loaded from the app's own `typescript`, over the files of two installed apps: an htmx app with
 * `--auth`, locales (`fw generate`'s typed translations) and `fw make event/mail/guard`, and a
 * Vite React TypeScript app. Hovers on the kernel APIs the generated code uses show real types
 * (no `any`) and the JSDoc written where each is defined; go-to-definition lands in a shipped
 * `.d.ts`; `ctx.` completes the plugins' fields; mistakes are diagnostics; a fresh app has none.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type ts from 'typescript';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ensurePrismaOffline } from '../support/prisma.js';
import { user, workDir } from './helpers.js';

const as = user();
let work = '';
let auth = '';
let vite = '';

/** An editor session on one tsconfig: the LanguageService, plus files open with unsaved text. */
interface Editor {
  ts: typeof ts;
  service: ts.LanguageService;
  /** Every file the tsconfig includes (absolute). */
  files: string[];
  /** Opens `file` (relative to the app) with `text`, as an unsaved buffer; returns its path. */
  open: (file: string, text: string) => string;
  /** The offset of `needle` in `file` plus `delta`; throws when `needle` is not there. */
  at: (file: string, needle: string, delta?: number) => number;
  /** Quick info (hover) at `needle`: the signature line and the documentation, as plain text. */
  hover: (file: string, needle: string, delta?: number) => { display: string; doc: string };
  /** Syntactic and semantic diagnostics of every file, as `file(line): message` lines. */
  diagnostics: () => string[];
}

/** The LanguageService of the `typescript` installed at `typescriptFrom` (default: `root`) over `tsconfig` (relative to `root`). */
function editor(root: string, tsconfig = 'tsconfig.json', typescriptFrom = root): Editor {
  const require = createRequire(path.join(typescriptFrom, 'package.json'));
  const typescript = require('typescript') as typeof ts;
  const parsed = typescript.getParsedCommandLineOfConfigFile(path.join(root, tsconfig), {}, {
    ...typescript.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(typescript.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error(`no ${tsconfig} in ${root}`);
  const buffers = new Map<string, { version: number; text: string }>();
  const files = [...parsed.fileNames];
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [...new Set([...files, ...buffers.keys()])],
    getScriptVersion: (file) => String(buffers.get(file)?.version ?? 0),
    getScriptSnapshot: (file) => {
      const text = buffers.get(file)?.text ?? (existsSync(file) ? readFileSync(file, 'utf8') : undefined);
      return text === undefined ? undefined : typescript.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => parsed.options,
    getProjectReferences: () => parsed.projectReferences,
    getDefaultLibFileName: (options) => typescript.getDefaultLibFilePath(options),
    fileExists: typescript.sys.fileExists,
    readFile: typescript.sys.readFile,
    readDirectory: typescript.sys.readDirectory,
    directoryExists: typescript.sys.directoryExists,
    getDirectories: typescript.sys.getDirectories,
    realpath: typescript.sys.realpath!,
  };
  const service = typescript.createLanguageService(host, typescript.createDocumentRegistry());
  const textOf = (file: string): string => buffers.get(file)?.text ?? readFileSync(file, 'utf8');
  const at = (file: string, needle: string, delta = 0): number => {
    const index = textOf(path.join(root, file)).indexOf(needle);
    if (index < 0) throw new Error(`${needle} is not in ${file}`);
    return index + delta;
  };
  return {
    ts: typescript,
    service,
    files,
    open: (file, text) => {
      const full = path.join(root, file);
      buffers.set(full, { version: (buffers.get(full)?.version ?? 0) + 1, text });
      return full;
    },
    at,
    hover: (file, needle, delta = 0) => {
      const info = service.getQuickInfoAtPosition(path.join(root, file), at(file, needle, delta));
      return {
        display: typescript.displayPartsToString(info?.displayParts).replace(/\s+/g, ' '),
        doc: typescript.displayPartsToString(info?.documentation).trim(),
      };
    },
    diagnostics: () =>
      host.getScriptFileNames().flatMap((file) =>
        [...service.getSyntacticDiagnostics(file), ...service.getSemanticDiagnostics(file)].map((d) => {
          const line = d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1 : 0;
          return `${path.relative(root, file)}(${line}): ${typescript.flattenDiagnosticMessageText(d.messageText, '\n')}`;
        }),
      ),
  };
}

/**
 * Every identifier in the app's files whose definition is in @fw/kernel, hovered: the ones whose
 * hover has no documentation or shows `any`, as `name @ file: signature` lines. Index signatures
 * (a free-form `ctx.state.x`) and the names a destructuring binds are the user's, not the kernel's.
 */
function undocumentedKernelUses(e: Editor, root: string): string[] {
  const found = new Map<string, string>();
  const program = e.service.getProgram()!;
  for (const file of e.files) {
    const visit = (node: ts.Node): void => {
      if (e.ts.isIdentifier(node) && !e.ts.isBindingElement(node.parent)) {
        const defs = e.service.getDefinitionAtPosition(file, node.getStart()) ?? [];
        if (defs.some((d) => d.fileName.includes('/node_modules/@fw/kernel/'))) {
          const info = e.service.getQuickInfoAtPosition(file, node.getStart());
          const display = e.ts.displayPartsToString(info?.displayParts).replace(/\s+/g, ' ');
          const doc = e.ts.displayPartsToString(info?.documentation).trim();
          if (!display.startsWith('(index)') && (doc === '' || /\bany\b/.test(display))) {
            found.set(node.text, `${node.text} @ ${path.relative(root, file)}: ${doc === '' ? 'no doc' : 'any'}: ${display}`);
          }
        }
      }
      e.ts.forEachChild(node, visit);
    };
    visit(program.getSourceFile(file)!);
  }
  return [...found.values()];
}

let authEditor: Editor;

beforeAll(async () => {
  as.env.PRISMA_SCHEMA_ENGINE_BINARY = ensurePrismaOffline();
  as.env.CHECKPOINT_DISABLE = '1';
  work = await workDir('editor');
  auth = path.join(work, 'app');
  vite = path.join(work, 'vapp');
  as.run('npm', ['create', 'fw-app@latest', 'app', '--', '--yes', '--auth'], work);
  as.run('npm', ['create', 'fw-app@latest', 'vapp', '--', '--yes', '--surface', 'vite', '--framework', 'react', '--typescript', '--install'], work);
  // Locales and a catalog: fw generate writes the typed translation modules.
  const fwJson = JSON.parse(readFileSync(path.join(auth, 'fw.json'), 'utf8')) as { config: Record<string, unknown> };
  fwJson.config['I18N_SUPPORTED_LOCALES'] = ['en', 'pt_BR'];
  await writeFile(path.join(auth, 'fw.json'), JSON.stringify(fwJson, null, 2) + '\n');
  await mkdir(path.join(auth, 'fluid/locales'), { recursive: true });
  await writeFile(path.join(auth, 'fluid/locales/messages.pot'), 'msgid "Hello, %(name)s!"\nmsgstr ""\n\nmsgid "Sign out"\nmsgstr ""\n');
  as.run('npx', ['fw', 'generate', '--install'], auth);
  as.run('npx', ['fw', 'make', 'event', 'user.created'], auth);
  as.run('npx', ['fw', 'make', 'mail', 'welcome'], auth);
  as.run('npx', ['fw', 'make', 'guard', 'editor'], auth);
  authEditor = editor(auth);
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

test('no diagnostics in the generated apps: every file their tsconfigs include, the vitest config and tests too', () => {
  for (const file of ['vitest.config.ts', 'test/home.test.ts', 'fluid/i18n/i18n-util.ts', 'fluid/events/user-created.ts', 'fluid/mail/welcome.ts', 'fluid/guards/editor.ts']) {
    expect(authEditor.files, file).toContain(path.join(auth, file));
  }
  expect(authEditor.diagnostics()).toEqual([]);
  const viteEditor = editor(vite);
  expect(viteEditor.files).toContain(path.join(vite, 'vitest.config.ts'));
  expect(viteEditor.diagnostics()).toEqual([]);
  // The browser code has its own tsconfigs (src, and vite.config.ts). Its own typescript is
  // TypeScript 7 (native, no JavaScript API); VS Code's editor runs its bundled JavaScript
  // TypeScript there unless told otherwise, so the app's (6.x) stands in for it.
  for (const tsconfig of ['tsconfig.app.json', 'tsconfig.node.json']) {
    const frontend = editor(path.join(vite, 'fluid/frontend'), tsconfig, vite);
    expect(frontend.files.length, tsconfig).toBeGreaterThan(0);
    expect(frontend.diagnostics(), tsconfig).toEqual([]);
  }
});

test('every kernel API the generated code uses hovers with its JSDoc and no any', () => {
  expect(undocumentedKernelUses(authEditor, auth)).toEqual([]);
  expect(undocumentedKernelUses(editor(vite), vite)).toEqual([]);
});

test('hovers on the APIs a user writes next: routes, ctx.render, ctx.requestId, guards, logger, events, mail, translations', () => {
  const probe = [
    "import { authOf, requireUser } from '@fw/kernel/auth';",
    "import { fluid } from './app.js';",
    "import { i18nObject } from './i18n/i18n-util.js';",
    "import { loadAllLocales } from './i18n/i18n-util.sync.js';",
    '',
    'loadAllLocales();',
    "fluid.app.get('probe', '/probe', requireUser, (ctx) => {",
    "  fluid.logger.info('probe', { requestId: ctx.requestId, users: authOf(ctx).users });",
    "  const LL = i18nObject(ctx.locale);",
    "  fluid.events.trigger('user.created', { id: '1' });",
    "  return ctx.render('index.html', { title: LL.helloName({ name: 'Ada' }) });",
    '});',
    '',
  ].join('\n');
  authEditor.open('fluid/probe.ts', probe);
  const hovers: [string, string, number, RegExp][] = [
    ['fluid/app.ts', 'new Fluid', 4, /new Fluid\(options: FluidOptions\): Fluid/],
    ['fluid/probe.ts', "get('probe'", 0, /HttpRouter\.get\(name: string, path: string, \.\.\.handlers: Handler\[\]\): HttpRouter/],
    ['fluid/probe.ts', 'requireUser,', 0, /const requireUser: Guard/],
    ['fluid/probe.ts', 'info(', 0, /Logger\.info\(message: string, fields\?: LogFields\): void/],
    ['fluid/probe.ts', 'requestId,', 0, /requestId\?: string/],
    ['fluid/probe.ts', 'users })', 0, /Auth<User>\.users: UserService<User>/],
    // fw generate's fluid/i18n/fluid-locale.ts types ctx.locale as the app's locales: no cast, no isLocale.
    ['fluid/probe.ts', 'locale)', 0, /locale: Locales$/],
    ['fluid/probe.ts', 'i18nObject(ctx', 0, /i18nObject\(locale: Locales\): TranslationFunctions/],
    ['fluid/probe.ts', 'helloName', 0, /helloName: \(arg: \{ name: string; \}\) => LocalizedString/],
    ['fluid/probe.ts', 'trigger(', 0, /Events\.trigger\(name: string, payload\?: unknown\): void/],
    ['fluid/probe.ts', 'render(', 0, /render\(template: string, data\?: TemplateData\): Markup/],
    ['fluid/mail/welcome.ts', 'sendTemplate', 0, /sendTemplate/],
    ['fluid/events/user-created.ts', 'createSignal', 0, /createSignal/],
    ['fluid/guards/editor.ts', 'guard(', 0, /guard\(guardName: string, check: \(ctx: FluidContext\) => Promise<User>\): Guard/],
  ];
  for (const [file, needle, delta, display] of hovers) {
    const hover = authEditor.hover(file, needle, delta);
    expect(hover.display, needle).toMatch(display);
    expect(hover.display, needle).not.toMatch(/\bany\b/);
    expect(hover.doc, needle).not.toBe('');
  }
});

test('kernel middleware fits a fluid route and a plain @koa/router Router alike, on a typed ctx', () => {
  const probe = [
    "import Router from '@koa/router';",
    "import Koa from 'koa';",
    "import { requireUser } from '@fw/kernel/auth';",
    "import { serveStatic } from '@fw/kernel/core';",
    "import { exempt, limit } from '@fw/kernel/limits';",
    "import { fluid } from './app.js';",
    '',
    "fluid.app.get('report', '/report', requireUser, limit('10/minute'), (ctx) => ctx.clientAddress);",
    "fluid.use(serveStatic('/files', 'uploads'));",
    'const router = new Router();',
    "router.get('/plain', requireUser, limit('10/minute'), exempt(), (ctx) => {",
    '  ctx.body = ctx.params;',
    '});',
    "const stack: Koa.Middleware[] = [limit('1/second'), requireUser, serveStatic('/files', 'uploads')];",
    "new Koa().use(router.routes()).use(limit('5/minute')).use(requireUser);",
    "limit('5/minute', { key: (ctx) => ctx.state.user });",
    'export { stack };',
    '',
  ].join('\n');
  const file = authEditor.open('fluid/probe.ts', probe);
  // Only the key function reading `ctx.state.user` (line 16) is wrong: a KoaContext's state is `unknown`.
  const diagnostics = authEditor.service.getSemanticDiagnostics(file);
  expect(diagnostics.map((d) => `${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1}: ${authEditor.ts.flattenDiagnosticMessageText(d.messageText, ' ')}`)).toEqual([
    expect.stringMatching(/^16: .*unknown/),
  ]);
  const hover = authEditor.hover('fluid/probe.ts', "limit('10/minute'), exempt");
  expect(hover.display).toMatch(/limit\(spec: string, options\?: LimitOptions\): KoaMiddleware/);
  expect(hover.doc).not.toBe('');
  expect(hover.display).not.toMatch(/\bany\b/);
});

test('a plain @koa/router Router mounts with fluid.use(router.routes()) and allowedMethods(); its handlers see typed params and state', () => {
  const probe = [
    "import Router from '@koa/router';",
    "import type { FluidContextExtensions, FluidState } from '@fw/kernel';",
    "import { requireUser } from '@fw/kernel/auth';",
    "import { fluid } from './app.js';",
    '',
    'const plain = new Router();',
    "plain.get('/plain/:id', (ctx) => {",
    '  ctx.body = ctx.params.id;',
    '});',
    'fluid.use(plain.routes());',
    'fluid.use(plain.allowedMethods());',
    '',
    "const router = new Router<FluidState, FluidContextExtensions>({ prefix: '/koa' });",
    "router.get('/items/:id', requireUser, (ctx) => {",
    "  ctx.body = { id: ctx.params.id, user: ctx.state.user, home: ctx.urlFor('home'), client: ctx.clientAddress };",
    '});',
    'fluid.use(router.routes());',
    "fluid.use(router.allowedMethods(), 'fallback');",
    '',
  ];
  const file = authEditor.open('fluid/koa-routes.ts', probe.join('\n'));
  const diagnostics = (): string[] =>
    [...authEditor.service.getSyntacticDiagnostics(file), ...authEditor.service.getSemanticDiagnostics(file)].map(
      (d) => `${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1}: ${authEditor.ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );
  expect(diagnostics()).toEqual([]);
  // The handler's ctx: the route's params, and on the app's types the app's state and fields.
  expect(authEditor.hover('fluid/koa-routes.ts', 'params.id;', 0).display).toMatch(/params: Record<string, string>/);
  expect(authEditor.hover('fluid/koa-routes.ts', 'state.user', 0).display).toMatch(/state: FluidState/);
  expect(authEditor.hover('fluid/koa-routes.ts', 'urlFor(', 0).display).toMatch(/urlFor\(name: string, params\?: UrlParams, options\?: UrlForOptions\): string/);
  const use = authEditor.hover('fluid/koa-routes.ts', "use(router.routes", 0);
  expect(use.display).toMatch(/use<FluidState, FluidContextExtensions>\(middleware: KoaRouterMiddleware<FluidState, FluidContextExtensions>, stage\?: Stage\)/);
  expect(use.display).not.toMatch(/\bany\b/);
  expect(use.doc).toMatch(/@koa\/router/);
  // A mistake in such a handler is still an error: only that line (15) is reported.
  const wrong = probe.map((line) => line.replace('ctx.state.user,', 'ctx.state.user.name,'));
  authEditor.open('fluid/koa-routes.ts', wrong.join('\n'));
  expect(diagnostics()).toEqual([expect.stringMatching(/^15: .*unknown/)]);
  authEditor.open('fluid/koa-routes.ts', probe.join('\n'));
});

test('the documentation pages kernel hovers name (@fw/kernel/docs/<page>.md) are in the installed package', () => {
  const probe = ["import { fluid } from './app.js';", '', "fluid.app.get('who', '/who', (ctx) => ctx.clientAddress);", ''].join('\n');
  authEditor.open('fluid/probe.ts', probe);
  const docs = [authEditor.hover('fluid/probe.ts', 'clientAddress').doc, authEditor.hover('fluid/app.ts', 'new Fluid', 4).doc].join('\n');
  // In backticks: a bare `@fw/...` would start a JSDoc tag and leave the description.
  const pages = [...docs.matchAll(/`(@fw\/kernel\/docs\/[a-z0-9-]+\.md)`/g)].map((m) => m[1]!);
  expect(pages).toEqual(expect.arrayContaining(['@fw/kernel/docs/rate-limits.md']));
  // The mention is a specifier the package exports: it resolves to the page in node_modules.
  const require = createRequire(path.join(auth, 'package.json'));
  for (const page of pages) expect(readFileSync(require.resolve(page), 'utf8'), page).toMatch(/^# /);
});

test("go-to-definition on a kernel import lands in a .d.ts the app's node_modules has", () => {
  const imports: [string, string][] = [
    ['fluid/app.ts', 'Fluid }'],
    ['fluid/guards/editor.ts', 'EmailVerifiedGate'],
    ['fluid/mail/welcome.ts', 'SentInfo'],
    ['fluid/events/user-created.ts', 'Signal }'],
    ['test/home.test.ts', 'testClient }'],
  ];
  for (const [file, needle] of imports) {
    const defs = authEditor.service.getDefinitionAtPosition(path.join(auth, file), authEditor.at(file, needle)) ?? [];
    expect(defs.length, needle).toBeGreaterThan(0);
    for (const def of defs) {
      expect(def.fileName, needle).toMatch(/\/node_modules\/@fw\/kernel\/dist\/.+\.d\.ts$/);
      expect(existsSync(def.fileName), def.fileName).toBe(true);
    }
  }
});

test('ctx. completes the fields plugins add; LL. completes the translation keys', () => {
  const probe = [
    "import { fluid } from './app.js';",
    "import { i18nObject } from './i18n/i18n-util.js';",
    '',
    "fluid.app.get('probe', '/probe', (ctx) => ctx.fluid && i18nObject('en').signOut());",
    '',
  ].join('\n');
  const file = authEditor.open('fluid/probe.ts', probe);
  const names = (needle: string): string[] =>
    authEditor.service.getCompletionsAtPosition(file, authEditor.at('fluid/probe.ts', needle, needle.length), {})?.entries.map((entry) => entry.name) ?? [];
  expect(names('ctx.')).toEqual(expect.arrayContaining(['render', 'requestId', 'urlFor', 'clientAddress', 'params', 'fluid', 'locale', 'i18n']));
  expect(names("i18nObject('en').").sort()).toEqual(['helloName', 'signOut']);
});

test('mistakes are diagnostics: an unknown translation key, a missing parameter, wrong template data, a wrong handler, a locale the app lacks', () => {
  const probe = [
    "import { fluid } from './app.js';",
    "import { i18nObject } from './i18n/i18n-util.js';",
    '',
    "const LL = i18nObject('en');",
    "fluid.app.get('a', '/a', () => LL.goodbye());",
    "fluid.app.get('b', '/b', () => LL.helloName());",
    "fluid.app.get('c', '/c', (ctx) => ctx.render('index.html', 42));",
    "fluid.app.get('d', '/d', (ctx: number) => ctx);",
    "fluid.app.get('e', '/e', () => i18nObject('fr'));",
    "fluid.app.get('f', '/f', (ctx) => i18nObject(ctx.locale).signOut());",
    '',
  ].join('\n');
  const file = authEditor.open('fluid/probe.ts', probe);
  // One error on each wrong line (5 to 9: 'fr' is no locale of the app), none elsewhere (ctx.locale is one of its Locales).
  const lines = authEditor.service.getSemanticDiagnostics(file).map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line + 1);
  expect([...new Set(lines)]).toEqual([5, 6, 7, 8, 9]);
});
