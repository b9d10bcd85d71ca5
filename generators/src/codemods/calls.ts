import type { CallExpression, Node as TsNode, SourceFile, Statement } from 'ts-morph';
import { tsMorph, eolOf, indentAt, lineEnd, type Splice } from './source.js';

/** `fluid.app.get(...)` → `['fluid', 'app', 'get']`; `undefined` when the callee is not a plain dotted name. */
export async function calleeChain(call: CallExpression): Promise<string[] | undefined> {
  const { Node } = await tsMorph();
  const chain: string[] = [];
  let node: TsNode = call.getExpression();
  while (Node.isPropertyAccessExpression(node)) {
    chain.unshift(node.getName());
    node = node.getExpression();
  }
  if (!Node.isIdentifier(node)) return undefined;
  chain.unshift(node.getText());
  return chain;
}

/** Every call expression in the file whose dotted callee and arguments satisfy `match`. */
export async function findCalls(
  sf: SourceFile,
  match: (chain: string[], call: CallExpression) => boolean,
): Promise<CallExpression[]> {
  const { SyntaxKind } = await tsMorph();
  const found: CallExpression[] = [];
  for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const chain = await calleeChain(call);
    if (chain && match(chain, call)) found.push(call);
  }
  return found;
}

/** The top-level statement holding `node`. */
export function topStatement(sf: SourceFile, node: TsNode): Statement | undefined {
  let current: TsNode | undefined = node;
  while (current && current.getParent() !== sf) current = current.getParent();
  return current as Statement | undefined;
}

/** Whether the statement's source text ends with a semicolon (the file's style, for new statements). */
export function semicolonOf(statement: Statement): string {
  return statement.getText().trimEnd().endsWith(';') ? ';' : '';
}

/** A splice putting `code` on a new line right after the line where `statement` ends, with its indentation. */
export function insertAfter(text: string, statement: Statement, code: string): Splice {
  const at = lineEnd(text, statement.getEnd());
  return { start: at, end: at, text: `${eolOf(text)}${indentAt(text, statement.getStart())}${code}` };
}
