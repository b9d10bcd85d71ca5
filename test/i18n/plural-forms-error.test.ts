/**
 * `fw generate` with a catalog whose `Plural-Forms` expression does not compile names the catalog
 * and the header. It used to print only JavaScript's own words (`error: i18n: Unexpected token
 * ')'`), naming neither the file nor the header (the kernel's loader already named both).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { editConfig, fw, newProject } from '../generators/project-helpers.js';

describe('fw generate and a broken Plural-Forms header', () => {
  it('names the catalog and the header', async () => {
    const root = await newProject();
    await editConfig(root, (c) => (c.config.I18N_SUPPORTED_LOCALES = ['en', 'pl']));
    expect((await fw(root, 'generate')).code).toBe(0);
    const pl = path.join(root, 'fluid/locales/pl.po');
    const text = await readFile(pl, 'utf8');
    expect(text).toContain('plural=(n==1 ? 0 : ');
    await writeFile(pl, text.replace('plural=(n==1 ? 0 : ', 'plural=(n==1 ? 0 ; '));
    const ran = await fw(root, 'generate');
    expect(ran.code).toBe(1);
    expect(ran.error).toMatch(
      /^i18n: fluid\/locales\/pl\.po: Plural-Forms: the plural expression of "nplurals=3; plural=\(n==1 \? 0 ; .*" does not compile \(Unexpected token '\)'\); expected a C expression of n/,
    );
  }, 60_000);
});
