/** The template helpers `_`, `_n`, `_p`, `_np` with the extension on and off. */
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupProjects, start } from '../kernel/helpers.js';
import { makeI18nFluid } from './fixture.js';

afterAll(cleanupProjects);

const PAGE = `<p>{{_ "Hello, %(name)s!" name=who}}</p>
<p>{{_n "%(num)d file" "%(num)d files" count}}</p>
<p>{{_n "%(n)d file" "%(n)d files" count}}</p>
<p>{{_p "door" "Open"}}</p>
<p>{{_np "inbox" "%(num)d message" "%(num)d messages" count}}</p>
<p>{{gettext "Post"}}|{{ngettext "%(num)d comment" "%(num)d comments" 1}}|{{pgettext "blog" "Draft"}}|{{npgettext "blog" "%(num)d draft" "%(num)d drafts" 2}}</p>`;

async function page(config: Record<string, unknown>, query: string): Promise<string> {
  const fluid = makeI18nFluid({ config, files: { 'fluid/templates/page.html': PAGE } });
  fluid.app.get('page', '/page', (ctx) => ctx.render('page.html', { who: '<Ada>', count: Number(ctx.query['count']) }));
  const base = await start(fluid);
  try {
    const res = await fetch(`${base}/page${query}`);
    expect(res.status).toBe(200);
    return await res.text();
  } finally {
    await fluid.close();
  }
}

describe('template helpers', () => {
  it('translate to the request locale (autoescaped)', async () => {
    const html = await page({}, '?lang=de&count=3');
    expect(html).toContain('<p>Hallo, &lt;Ada&gt;!</p>');
    expect(html).toContain('<p>3 Dateien</p>');
    expect(html).toContain('<p>3 files</p>'); // no such msgid: source plural, %(n)d interpolated
    expect(html).toContain('<p>Aufmachen</p>');
    expect(html).toContain('<p>3 Nachrichten</p>');
    expect(html).toContain('<p>Beitrag|1 Kommentar|Entwurf|2 Entwürfe</p>');
  });

  it('Polish plural forms in a template', async () => {
    const html = await page({}, '?lang=pl&count=22');
    expect(html).toContain('<p>22 pliki</p>');
    expect(html).toContain('<p>22 wiadomości</p>');
  });

  it('with EXT_I18N off the plural fallback interpolates both num and n (the reference raised KeyError: num)', async () => {
    const html = await page({ EXT_I18N: false }, '?lang=de&count=1');
    expect(html).toContain('<p>Hello, &lt;Ada&gt;!</p>');
    expect(html).toContain('<p>1 file</p>'); // %(num)d
    expect(html).toContain('<p>1 file</p>\n<p>1 file</p>'); // %(n)d
    expect(html).toContain('<p>Open</p>');
    expect(html).toContain('<p>1 message</p>');
    const many = await page({ EXT_I18N: false }, '?count=4');
    expect(many).toContain('<p>4 files</p>\n<p>4 files</p>');
  });

  it('{{current_locale}} is the request locale as a BCP 47 tag, the default with EXT_I18N off (and a gettext-style locale such as pt_BR boots: Intl.PluralRules threw on it)', async () => {
    const html = (config: Record<string, unknown>, query: string) => {
      const fluid = makeI18nFluid({ config, files: { 'fluid/templates/lang.html': '<html lang="{{current_locale}}">{{locale}}' } });
      fluid.app.get('lang', '/lang', (ctx) => ctx.render('lang.html', { locale: 'mine' }));
      return start(fluid).then(async (base) => {
        try {
          return await (await fetch(`${base}/lang${query}`)).text();
        } finally {
          await fluid.close();
        }
      });
    };
    expect(await html({}, '?lang=de')).toBe('<html lang="de">mine');
    expect(await html({}, '?lang=xx')).toBe('<html lang="en">mine');
    expect(await html({ I18N_SUPPORTED_LOCALES: ['en', 'pt_BR'] }, '?lang=pt-br')).toBe('<html lang="pt-BR">mine');
    expect(await html({ EXT_I18N: false }, '?lang=de')).toBe('<html lang="en">mine');
  });

  it('a wrong helper call is a 500 naming the helper and its usage', async () => {
    const fluid = makeI18nFluid({ files: { 'fluid/templates/bad.html': '{{_n "a" "b"}}' } });
    expect(() => fluid.render('bad.html')).toThrow(/\{\{_n\}\} takes 3 argument\(s\), got 2: \{\{_n "singular" "plural" count\}\}/);
  });
});
