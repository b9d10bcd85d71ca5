import type { SourceFile, Statement, ts as Ts } from 'ts-morph';
import { anchorLabel, findAnchor, type Anchor } from './anchor.js';
import { calleeChain, insertAfter } from './calls.js';
import { CodemodAnchorError } from './errors.js';
import { namedImports } from './imports.js';
import type { SnippetFormatter } from './route.js';
import { applySplices, eolOf, parse, quoteOf, tsMorph, type CodemodResult, type SourceText, type Splice } from './source.js';

/** A registration in the app file: names imported from a module, and a statement using them. */
export interface Registration {
  /** The module, as `fluid/app.ts` imports it (`./plugins/audit.js`). */
  from: string;
  /** Names imported from it. */
  imports: string[];
  /** Written with `fluid` for the app: `fluid.plugin(audit());`. */
  statement: string;
}

/** The statement with every `fluid` that names the app (not a property) renamed to the file's app variable. */
async function forApp(statement: string, app: string): Promise<string> {
  if (app === 'fluid') return statement;
  const { ts } = await tsMorph();
  const sf = ts.createSourceFile('statement.ts', statement, ts.ScriptTarget.Latest, true);
  const splices: Splice[] = [];
  const visit = (node: Ts.Node): void => {
    if (ts.isIdentifier(node) && node.text === 'fluid') {
      const parent = node.parent;
      const member = (ts.isPropertyAccessExpression(parent) && parent.name === node) || (ts.isPropertyAssignment(parent) && parent.name === node);
      if (!member) splices.push({ start: node.getStart(sf), end: node.getEnd(), text: app });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return applySplices(statement, splices);
}

/** The last top-level statement that registers something on the app: `fluid.plugin(...)`, `fluid.additive(...)`, `const x = f(fluid)`. */
async function lastRegistration(sf: SourceFile, anchor: Anchor): Promise<Statement> {
  const { Node } = await tsMorph();
  let last: Statement = anchor.statement;
  for (const statement of sf.getStatements()) {
    if (statement.getEnd() <= last.getEnd()) continue;
    let registers = false;
    if (Node.isExpressionStatement(statement)) {
      const call = statement.getExpression();
      const chain = Node.isCallExpression(call) ? await calleeChain(call) : undefined;
      registers = chain?.length === 2 && chain[0] === anchor.name && (chain[1] === 'plugin' || chain[1] === 'additive');
    } else if (Node.isVariableStatement(statement)) {
      registers = statement.getDeclarations().some((d) => {
        const init = d.getInitializer();
        return Node.isCallExpression(init) && init.getArguments().some((a) => a.getText() === anchor.name);
      });
    }
    if (registers) last = statement;
  }
  return last;
}

const squeeze = (code: string): string => code.replace(/\s+/g, '');

/**
 * Registers something on the app in `fluid/app.ts`: imports `imports` from `from` (reusing an
 * import of that module, by its specifier) and puts `statement` after the app's last registration
 * (`fluid.plugin(...)`, `fluid.additive(...)`, `const x = f(fluid)`) or right after
 * `const fluid = new Fluid(...)`, formatted like the file. A statement already there (the same
 * code) is not added twice. When the file already uses an imported name for something else, or has
 * no anchor, nothing is changed and a {@link CodemodAnchorError} gives the edit to make by hand.
 */
export async function addRegistration(file: SourceText, registration: Registration, format: SnippetFormatter): Promise<CodemodResult> {
  const { sf } = await parse(file);
  const text = file.text;
  const q = quoteOf(sf);
  const anchor = await findAnchor(sf, 'Fluid');
  const importLine = `import { ${registration.imports.join(', ')} } from ${q}${registration.from}${q};`;
  const byHand = (why: string): CodemodAnchorError =>
    new CodemodAnchorError(file.path, `${why}: add \`${importLine}\` and \`${registration.statement}\` to ${file.path} by hand`);
  if (!anchor) throw byHand(`${file.path} has no ${anchorLabel('Fluid', 'fluid')}`);
  const statement = await forApp(registration.statement, anchor.name);
  const splices: Splice[] = [];

  const imports = await namedImports(sf, text, registration.from, registration.imports);
  if (imports.taken) throw byHand(`${file.path} already uses the name "${imports.taken}"`);
  splices.push(...imports.splices);

  const present = sf.getStatements().some((s) => squeeze(s.getText()) === squeeze(statement));
  if (!present) {
    const formatted = await format(statement, '');
    splices.push(insertAfter(text, await lastRegistration(sf, anchor), formatted.replaceAll('\n', eolOf(text))));
  }
  if (splices.length === 0) return { changed: false, text };
  return { changed: true, text: applySplices(text, splices) };
}
