/**
 * Interpolation of translated strings. The primary syntax is Python's, as in the reference's
 * catalogs: `%(name)s`, `%(num)d` (and `%%` for a percent sign). `{name}` is accepted too.
 * A placeholder whose variable is missing stays as written: a missing variable is never an error.
 * Without variables a string is answered as is (like Python's `gettext` without `%`).
 */

/** Variables a message interpolates. */
export type TranslationVars = Readonly<Record<string, unknown>>;

const PATTERN = /%%|%\((\w+)\)([sdif])|\{(\w+)\}/g;

/** A placeholder: its variable, its conversion (`s d i f`, or `''` for `{name}`) and the text it replaces. */
type Part = string | { name: string; conv: string; raw: string };

/** Parsed strings (bounded: cleared past `MAX_PARSED`). */
const parsed = new Map<string, readonly Part[]>();
const MAX_PARSED = 10_000;

function parse(text: string): readonly Part[] {
  let parts = parsed.get(text);
  if (!parts) {
    const out: Part[] = [];
    let last = 0;
    for (const m of text.matchAll(PATTERN)) {
      if (m.index > last) out.push(text.slice(last, m.index));
      out.push(m[0] === '%%' ? '%' : { name: m[1] ?? m[3] ?? '', conv: m[2] ?? '', raw: m[0] });
      last = m.index + m[0].length;
    }
    if (last < text.length) out.push(text.slice(last));
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parts = out;
    parsed.set(text, parts);
  }
  return parts;
}

/** Replaces `%(name)s`, `%(num)d`, `%%` and `{name}` in `text` with values from `vars`. */
export function interpolate(text: string, vars?: TranslationVars): string {
  if (!vars || (!text.includes('%') && !text.includes('{'))) return text;
  let out = '';
  for (const part of parse(text)) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    if (!Object.hasOwn(vars, part.name)) {
      out += part.raw;
      continue;
    }
    const value = vars[part.name];
    out += part.conv === 'd' || part.conv === 'i' ? String(Math.trunc(Number(value))) : part.conv === 'f' ? String(Number(value)) : String(value);
  }
  return out;
}
