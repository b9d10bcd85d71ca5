/**
 * Interpolation of translated strings. The primary syntax is Python's, as in the reference's
 * catalogs: `%(name)s`, `%(num)d` (and `%%` for a percent sign). `{name}` is accepted too.
 * A placeholder whose variable is missing stays as written: a missing variable is never an error.
 */

/** Variables a message interpolates. */
export type TranslationVars = Readonly<Record<string, unknown>>;

const PATTERN = /%%|%\((\w+)\)([sdif])|\{(\w+)\}/g;

/** Replaces `%(name)s`, `%(num)d`, `%%` and `{name}` in `text` with values from `vars`. */
export function interpolate(text: string, vars?: TranslationVars): string {
  if (!vars || (!text.includes('%') && !text.includes('{'))) return text;
  return text.replace(PATTERN, (whole, pyName: string | undefined, conv: string | undefined, braceName: string | undefined) => {
    if (whole === '%%') return '%';
    const name = pyName ?? braceName ?? '';
    if (!Object.hasOwn(vars, name)) return whole;
    const value = vars[name];
    if (conv === 'd' || conv === 'i') return String(Math.trunc(Number(value)));
    if (conv === 'f') return String(Number(value));
    return String(value);
  });
}
