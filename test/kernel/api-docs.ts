/**
 * What a user's editor shows of `@fw/kernel`: every declaration reachable from the entry points of
 * its package.json `exports`, read from the declaration files `tsc` emits for the kernel (the
 * `dist/**\/*.d.ts` the package ships), with whether it carries a doc comment.
 *
 * The declarations are emitted in memory from the kernel's own tsconfig, so the answer is about the
 * sources as they are now, never about a stale `dist/`. Exported functions, classes, interfaces,
 * type aliases, variables and enums count, and so do the members a user reaches through them: the
 * public and protected members of a class, the properties and methods of an interface (the ones a
 * plugin's `declare module` block adds included) or of an object type alias. A class member may
 * take its comment from the interface member it implements or the base member it overrides (the
 * editor shows that one). A constructor is
 * documented by its class: that is what an editor shows for `new X(` when the constructor has no
 * comment of its own. Members inherited from another package (Koa, Node) are
 * that package's business, and so are declarations outside the kernel (e.g. re-exported
 * `@fw/schemas` types).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const KERNEL = path.join(REPO, 'runtime-kernel');

/** One exported declaration or member of the kernel's public API. */
export interface ApiEntry {
  /** `limit`, `Fluid.use`, `RateLimiter.middleware`, `@fw/kernel/auth` entry's `Guard.check`, ... */
  readonly name: string;
  /** The declaration file, relative to the kernel package (`dist/limits/limiter.d.ts`). */
  readonly file: string;
  /** Whether the declaration has a `/** ... *\/` comment with text or tags. */
  readonly documented: boolean;
  /** The names of the JSDoc tags of its comment (`param`, `returns`, ...). */
  readonly tags: readonly string[];
}

/** The kernel's `exports` entry points as `.d.ts` paths (absolute, under `runtime-kernel/dist`). */
function entryPoints(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(KERNEL, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { types?: string }>;
  };
  return Object.values(pkg.exports).flatMap((target) =>
    typeof target === 'object' && target.types ? [path.join(KERNEL, target.types)] : [],
  );
}

/** The kernel's declaration files, emitted in memory: absolute `dist/...d.ts` path → text. */
function emitDeclarations(): Map<string, string> {
  const configFile = path.join(KERNEL, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error(`cannot read ${configFile}`);
  const options: ts.CompilerOptions = { ...parsed.options, composite: false, incremental: false, tsBuildInfoFile: undefined };
  const program = ts.createProgram({ rootNames: parsed.fileNames, options, projectReferences: parsed.projectReferences ?? [] });
  const files = new Map<string, string>();
  const result = program.emit(undefined, (fileName, text) => {
    if (fileName.endsWith('.d.ts')) files.set(path.resolve(fileName), text);
  }, undefined, true);
  const errors = result.diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) throw new Error(ts.formatDiagnostics(errors, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => REPO, getNewLine: () => '\n' }));
  return files;
}

function hasDoc(node: ts.Node): boolean {
  // A variable's comment sits on its statement (`/** ... */ export declare const x`).
  const holder = ts.isVariableDeclaration(node) ? node.parent.parent : node;
  return ts.getJSDocCommentsAndTags(holder).some((doc) => {
    if (ts.isJSDoc(doc)) return Boolean(ts.getTextOfJSDocComment(doc.comment)?.trim()) || (doc.tags?.length ?? 0) > 0;
    return true;
  });
}

function isHidden(member: ts.Declaration): boolean {
  const name = (member as ts.NamedDeclaration).name;
  if (name && ts.isPrivateIdentifier(name)) return true;
  const flags = ts.getCombinedModifierFlags(member);
  return (flags & ts.ModifierFlags.Private) !== 0;
}

function isAugmentation(decl: ts.Declaration): boolean {
  return ts.isModuleBlock(decl.parent) && ts.isModuleDeclaration(decl.parent.parent) && ts.isStringLiteral(decl.parent.parent.name);
}

/** Members a user reaches through `decl`: of a class, an interface or an object type alias. */
function membersOf(decl: ts.Declaration): readonly ts.Declaration[] {
  if (ts.isClassDeclaration(decl) || ts.isInterfaceDeclaration(decl)) return decl.members;
  if (ts.isTypeAliasDeclaration(decl) && ts.isTypeLiteralNode(decl.type)) return decl.type.members;
  if (ts.isEnumDeclaration(decl)) return decl.members;
  return [];
}

function memberName(member: ts.Declaration, sourceFile: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(member)) return 'constructor';
  if (ts.isCallSignatureDeclaration(member)) return '(call)';
  if (ts.isConstructSignatureDeclaration(member)) return '(new)';
  if (ts.isIndexSignatureDeclaration(member)) return '[index]';
  const name = (member as ts.NamedDeclaration).name;
  return name ? name.getText(sourceFile) : '(anonymous)';
}

/**
 * Every declaration reachable from the kernel's entry points, once each (a declaration exported
 * from several entry points is listed under its first name), documented or not.
 */
export function kernelApi(): ApiEntry[] {
  const emitted = emitDeclarations();
  const host = ts.createCompilerHost({});
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (f) => emitted.get(path.resolve(f)) ?? readFile(f);
  host.fileExists = (f) => emitted.has(path.resolve(f)) || fileExists(f);
  const options: ts.CompilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, types: ['node'], noEmit: true, skipLibCheck: true };
  const entries = entryPoints();
  const missing = entries.filter((e) => !emitted.has(e));
  if (missing.length > 0) throw new Error(`package.json exports name declaration files tsc does not emit: ${missing.join(', ')}`);
  const program = ts.createProgram({ rootNames: entries, options, host });
  const checker = program.getTypeChecker();
  const inKernel = (file: ts.SourceFile) => emitted.has(path.resolve(file.fileName));
  const relative = (file: ts.SourceFile) => path.relative(KERNEL, file.fileName).split(path.sep).join('/');

  const seen = new Set<ts.Node>();
  const api: ApiEntry[] = [];
  // A class member without a comment of its own shows the one of the member it implements or
  // overrides (an interface's, a base class's), in the editor as here.
  const inherited = (node: ts.Declaration): boolean => {
    const name = (node as ts.NamedDeclaration).name;
    if (!name || !ts.isClassLike(node.parent)) return false;
    const symbol = checker.getSymbolAtLocation(name);
    return (symbol?.getDocumentationComment(checker).length ?? 0) > 0;
  };
  const record = (node: ts.Declaration, name: string) => {
    if (seen.has(node)) return;
    seen.add(node);
    const holder = ts.isVariableDeclaration(node) ? node.parent.parent : node;
    const tags = ts.getJSDocTags(holder).map((t) => t.tagName.text);
    api.push({ name, file: relative(node.getSourceFile()), documented: hasDoc(node) || inherited(node), tags });
  };
  for (const entry of entries) {
    const source = program.getSourceFile(entry)!;
    const moduleSymbol = checker.getSymbolAtLocation(source);
    if (!moduleSymbol) continue;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      for (const decl of symbol.declarations ?? []) {
        const file = decl.getSourceFile();
        // `declare module` augmentations of other packages and declarations of other packages.
        if (!inKernel(file) || ts.isModuleDeclaration(decl)) continue;
        // A plugin's `declare module '...' { interface FluidCore { ... } }` adds members to an
        // interface documented where it is declared: the members it adds count, the block does not.
        if (!isAugmentation(decl)) record(decl, exported.name);
        for (const member of membersOf(decl)) {
          if (isHidden(member) || ts.isConstructorDeclaration(member)) continue;
          record(member, `${exported.name}.${memberName(member, file)}`);
        }
      }
    }
  }
  return api;
}
