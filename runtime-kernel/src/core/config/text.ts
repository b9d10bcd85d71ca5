/** Reading config files as text: UTF-8 (a byte-order mark dropped), else latin1. */
import { readFileSync } from 'node:fs';
import type { TextPosition } from '@fw/schemas';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

/** Decodes bytes as UTF-8 (a BOM is dropped), or as latin1 when they are not valid UTF-8. */
export function decodeText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    return latin1.decode(bytes);
  }
}

/** Reads a text file with {@link decodeText}. */
export function readText(file: string): string {
  return decodeText(readFileSync(file));
}

/**
 * Where each `KEY = value` line of an ini or dotenv text names its key (1-based lines; the ini's
 * `[section]` headers too), the keys written twice as `[key, first line, second line]`, and the
 * lines that hold neither a key with `=`, a `[section]` header, a comment nor nothing, as
 * `[text, line]` (the `ini` package reads such a line as a key set to `true`: `PORT` alone, or a
 * header missing its `]`), and the `[section]` headers as `[name, line]`.
 *
 * `dotenv`: the text is a `.env` file (Node's `util.parseEnv`): no sections (a `[x]` line is bare),
 * `#` comments only, and a quoted value may run over several lines (`KEY="a` ... `b"`), whose
 * lines are the value, never keys or bare lines.
 */
export function keyLines(
  text: string,
  options: { dotenv?: boolean } = {},
): {
  positions: Record<string, TextPosition>;
  repeated: [string, number, number][];
  bare: [string, number][];
  sections: [string, number][];
} {
  const positions: Record<string, TextPosition> = {};
  const repeated: [string, number, number][] = [];
  const bare: [string, number][] = [];
  const sections: [string, number][] = [];
  let section = '';
  let openQuote: string | undefined; // the quote a multi-line .env value still waits for
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    if (openQuote !== undefined) {
      if (raw.includes(openQuote)) openQuote = undefined;
      continue;
    }
    const header = options.dotenv ? null : /^\s*\[([^\]]+)\]\s*$/.exec(raw);
    if (header) {
      section = header[1]!.trim();
      positions[section] ??= { line: i + 1 };
      sections.push([section, i + 1]);
      continue;
    }
    const match = /^\s*(?:export\s+)?([^=;#\s][^=]*?)\s*=/.exec(raw);
    if (!match) {
      const line = raw.trim();
      if (line !== '' && !(line.startsWith(';') && !options.dotenv) && !line.startsWith('#')) bare.push([line, i + 1]);
      continue;
    }
    if (options.dotenv) {
      const value = raw.slice(raw.indexOf('=') + 1).trimStart();
      const quote = value[0];
      if ((quote === '"' || quote === "'" || quote === '`') && !value.slice(1).includes(quote)) openQuote = quote;
    }
    if (section !== '') continue;
    const key = match[1]!;
    const first = positions[key];
    if (first) repeated.push([key, first.line, i + 1]);
    else positions[key] = { line: i + 1 };
  }
  return { positions, repeated, bare, sections };
}

/**
 * The `KEY = value` lines of an ini text whose unquoted value holds a `;` or `#` right after
 * another character, as `[key, line, character]`: the `ini` package reads either as the start of
 * a comment and silently drops the rest of the value (`RATELIMIT_DEFAULT = 10/minute;100/hour`
 * would be `10/minute`, a password `ab#cd` would be `ab`). A comment after a space
 * (`PORT = 8000 ; dev`), a quoted value and an escaped `\;` are left alone.
 */
export function cutIniValues(text: string): [string, number, string][] {
  const cut: [string, number, string][] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const match = /^\s*([^=;#\s\[][^=]*?)\s*=\s*(.*)$/.exec(raw);
    if (!match) continue;
    const value = match[2]!;
    if (/^["']/.test(value)) continue;
    const at = /(?<=[^\s\\])[;#]/.exec(value);
    if (at) cut.push([match[1]!, i + 1, at[0]]);
  }
  return cut;
}
