/** The part of gettext-parser (which ships no types) that fw uses: the PO parser. */
declare module 'gettext-parser' {
  /** One message of a parsed catalog. */
  export interface GetTextTranslation {
    msgctxt?: string;
    msgid: string;
    msgid_plural?: string;
    msgstr?: string[];
    comments?: { extracted?: string; reference?: string; flag?: string; translator?: string; previous?: string };
  }
  /** A parsed PO or MO file. */
  export interface GetTextTranslations {
    charset: string;
    headers?: Record<string, string>;
    translations?: Record<string, Record<string, GetTextTranslation>>;
  }
  export const po: {
    parse(input: string | Buffer, options?: { defaultCharset?: string; validation?: boolean }): GetTextTranslations;
    compile(table: GetTextTranslations, options?: Record<string, unknown>): Buffer;
  };
  const gettextParser: { po: typeof po };
  export default gettextParser;
}
