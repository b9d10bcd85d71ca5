import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Additive, Markup, escape, joinHtml, type Fluid } from '@fw/kernel';
import { joinMarkup } from '@fw/kernel/core';
import { cleanupProjects, makeFluid, makeProject, start, type ProjectSpec } from './helpers.js';

const open: Fluid[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((f) => f.close()));
});
afterAll(cleanupProjects);

function app(spec: ProjectSpec = {}): Fluid {
  const f = makeFluid(spec);
  open.push(f);
  return f;
}

const EVIL = '<b>"x" & \'y\'</b>';

describe('autoescape by suffix', () => {
  const escaped = ['html', 'htm', 'xml', 'xhtml', 'svg'];
  const raw = ['txt', 'md', 'json'];
  const files: Record<string, string> = {};
  for (const s of [...escaped, ...raw]) files[`fluid/templates/t.${s}`] = '[{{v}}]';

  it.each(escaped)('escapes .%s', (suffix) => {
    const f = app({ files });
    expect(f.render(`t.${suffix}`, { v: EVIL }).toString()).toBe('[&lt;b&gt;&quot;x&quot; &amp; &#x27;y&#x27;&lt;/b&gt;]');
  });

  it.each(raw)('does not escape .%s', (suffix) => {
    const f = app({ files });
    expect(f.render(`t.${suffix}`, { v: EVIL }).toString()).toBe(`[${EVIL}]`);
  });

  it('escapes string-rendered templates', () => {
    const f = app();
    expect(f.templates.renderString('<p>{{v}}</p>', { v: '<i>' }).toString()).toBe('<p>&lt;i&gt;</p>');
  });
});

describe('Markup and escape', () => {
  it('prints Markup unescaped and never double-escapes', () => {
    const f = app({ files: { 'fluid/templates/m.html': '{{m}}|{{escape m}}|{{escape s}}|{{escape (escape s)}}' } });
    const out = f.render('m.html', { m: new Markup('<em>ok</em>'), s: '<x>' }).toString();
    expect(out).toBe('<em>ok</em>|<em>ok</em>|&lt;x&gt;|&lt;x&gt;');
    expect(escape(escape('<a>')).toString()).toBe('&lt;a&gt;');
    expect(escape(new Markup('<a>')).toString()).toBe('<a>');
    expect(escape(null).toString()).toBe('');
  });

  it('joining Markup with a plain separator gives a plain string, escaped on output', () => {
    const joined = joinMarkup([new Markup('<b>1</b>'), new Markup('<b>2</b>')], ', ');
    expect(typeof joined).toBe('string');
    expect(joined).toBe('<b>1</b>, <b>2</b>');
    const f = app({ files: { 'fluid/templates/j.html': '{{j}}' } });
    expect(f.render('j.html', { j: joined }).toString()).toBe('&lt;b&gt;1&lt;/b&gt;, &lt;b&gt;2&lt;/b&gt;');
    const html = joinHtml([new Markup('<b>1</b>'), '<2>'], ', ');
    expect(html).toBeInstanceOf(Markup);
    expect(f.render('j.html', { j: html }).toString()).toBe('<b>1</b>, &lt;2&gt;');
  });

  it('ctx.render returns Markup served as HTML', async () => {
    const f = app({ files: { 'fluid/templates/index.html': '<h1>{{title}}</h1>' } });
    f.app.get('home', '/', (ctx) => ctx.render('index.html', { title: 'a<b' }));
    const url = await start(f);
    const r = await fetch(url);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await r.text()).toBe('<h1>a&lt;b</h1>');
  });
});

describe('lookup, caching and errors', () => {
  it('searches the app, then Additives, then the kernel; the app overrides', () => {
    const addRoot = makeProject({ files: { 'templates/shared.html': 'additive shared', 'templates/own.html': 'additive own' } });
    const f = app({ files: { 'fluid/templates/shared.html': 'app shared' } });
    f.additive(new Additive('blog', { root: addRoot }));
    expect(f.render('shared.html').toString()).toBe('app shared');
    expect(f.render('own.html').toString()).toBe('additive own');
    expect(f.render('errors/404.html', { status: 404, title: 'Not Found', message: 'm' }).toString()).toContain('fw-status');
  });

  it('resolves partials and layouts through the same lookup, the app overriding', () => {
    const addRoot = makeProject({ files: { 'templates/partials/nav.html': 'additive nav', 'templates/partials/foot.html': 'additive foot {{x}}' } });
    const f = app({
      files: {
        'fluid/templates/layout.html': '<main>{{> @partial-block}}</main>',
        'fluid/templates/partials/nav.html': '<nav>{{x}}</nav>',
        'fluid/templates/page.html': '{{#> layout}}{{> partials/nav}}|{{> "partials/foot.html"}}{{/layout}}',
        'fluid/templates/broken.html': '{{> nowhere}}',
      },
    });
    f.additive(new Additive('blog', { root: addRoot }));
    expect(f.render('page.html', { x: '<x>' }).toString()).toBe('<main><nav>&lt;x&gt;</nav>|additive foot &lt;x&gt;</main>');
    expect(() => f.render('broken.html')).toThrow(/uses the partial 'nowhere', which was not found \(tried nowhere, nowhere\.html/);
  });

  it('compiles a template once and caches it', () => {
    const f = app({ files: { 'fluid/templates/c.html': 'first' } });
    expect(f.render('c.html').toString()).toBe('first');
    writeFileSync(join(f.root, 'fluid/templates/c.html'), 'second');
    expect(f.render('c.html').toString()).toBe('first');
  });

  it('re-reads edited templates and partials with DEBUG on', () => {
    const f = app({ config: { DEBUG: true }, files: { 'fluid/templates/d.html': 'v1 {{> p}}', 'fluid/templates/p.html': 'p1' } });
    expect(f.render('d.html').toString()).toBe('v1 p1');
    writeFileSync(join(f.root, 'fluid/templates/p.html'), 'p2');
    const later = new Date(Date.now() + 5000);
    utimesSync(join(f.root, 'fluid/templates/p.html'), later, later);
    expect(f.render('d.html').toString()).toBe('v1 p2');
  });

  it('names the template and folders on errors', () => {
    const f = app({ files: { 'fluid/templates/bad.html': '{{#if}}' } });
    expect(() => f.render('missing.html')).toThrow(/Template 'missing\.html' not found; searched: .*fluid\/templates/);
    expect(() => f.render('bad.html')).toThrow(/bad\.html failed to compile/);
    expect(() => f.render('../fw.json')).toThrow(/Invalid template name/);
  });
});

describe('a failing helper names the template file and the line of the call', () => {
  const files = {
    'fluid/templates/layout.html': '<main>\n{{> @partial-block}}\n</main>',
    'fluid/templates/partials/nav.html': '<nav>\n  <a href="{{url_for "nope"}}">x</a>\n</nav>',
    'fluid/templates/page.html': '{{#> layout}}\n<h1>{{title}}</h1>\n{{> partials/nav}}\n{{/layout}}',
    'fluid/templates/block.html': '{{#> layout}}\n<h1>{{title}}</h1>\n   {{_n "a"}}\n{{/layout}}',
    'fluid/templates/ext.html': '<p>\n{{url_for "home" _external=true}}</p>',
    'fluid/templates/missing.html': '<p>{{title}}</p>\n{{nohelper 1}}',
  };
  // [rendered template, file named, line, column, message]
  const cases: Array<[string, string, number, number, RegExp]> = [
    // in a partial: the partial's file, not the page's
    ['page.html', 'partials/nav.html', 2, 12, /fluid\/templates\/partials\/nav\.html:2:12: \{\{url_for\}\}: urlFor: no route named 'nope'/],
    // in the block a page hands to its layout: the page's file, not the layout's
    ['block.html', 'block.html', 3, 4, /fluid\/templates\/block\.html:3:4: \{\{_n\}\}: \{\{_n\}\} takes 3 argument/],
    ['ext.html', 'ext.html', 2, 1, /fluid\/templates\/ext\.html:2:1: \{\{url_for\}\}: urlFor\('home', …, \{ external: true \}\) needs BASE_URL/],
    ['missing.html', 'missing.html', 2, 1, /fluid\/templates\/missing\.html:2:1: \{\{nohelper\}\}: Missing helper: "nohelper"/],
  ];

  it.each(cases)('%s: %s line %i', async (name, file, line, column, expected) => {
    const f = app({ config: { DEBUG: true }, files });
    f.app.get('home', '/', (ctx) => ctx.render(name, { title: 'T' }));
    expect(() => f.render(name, { title: 'T' })).toThrow(expected);
    const url = await start(f);
    // the debug page shows the template around that line
    const r = await fetch(url, { headers: { accept: 'application/json' } });
    expect(r.status).toBe(500);
    const body = (await r.json()) as { debug: { error: { name: string; message: string; causes: unknown[] }; location?: { shown: string; line: number; column: number } } };
    expect(body.debug.error.name).toBe('TemplateRenderError');
    expect(body.debug.error.message).toMatch(expected);
    expect(body.debug.error.causes.length).toBeGreaterThan(0);
    expect(body.debug.location).toMatchObject({ shown: `fluid/templates/${file}`, line, column });
  });

  it('a string template is named <string>', () => {
    const f = app();
    expect(() => f.templates.renderString('a\n{{url_for "nope"}}')).toThrow(/^<string>:2:1: \{\{url_for\}\}: urlFor: no route named 'nope'/);
  });
});

describe('helpers', () => {
  it('frontend() emits htmx and Alpine from /fluid/static/vendor, and Tailwind when present', async () => {
    const f = app({
      config: { APP_FRONTEND: { type: 'htmx', alpine: true } },
      files: { 'fluid/templates/f.html': '{{frontend}}', 'fluid/static/tailwind.css': 'body{}' },
    });
    const out = f.render('f.html').toString();
    expect(out).toContain('<script src="/fluid/static/vendor/htmx.min.js"></script>');
    expect(out).toContain('<script defer src="/fluid/static/vendor/alpine.min.js"></script>');
    expect(out).toContain('<link rel="stylesheet" href="/static/tailwind.css">');
    const url = await start(f);
    for (const path of ['/fluid/static/vendor/htmx.min.js', '/fluid/static/vendor/alpine.min.js', '/static/tailwind.css']) {
      const r = await fetch(url + path);
      expect(r.status, path).toBe(200);
      expect((await r.text()).length).toBeGreaterThan(0);
    }
    const htmx = await fetch(`${url}/fluid/static/vendor/htmx.min.js`);
    expect(await htmx.text()).toContain('htmx');
    expect((await fetch(`${url}/fluid/static/vendor/htmx.js`)).status).toBe(404);
  });

  it('frontend() emits htmx alone by default and nothing for type none', () => {
    const plain = app({ files: { 'fluid/templates/f.html': '{{frontend}}' } });
    expect(plain.render('f.html').toString()).toBe('<script src="/fluid/static/vendor/htmx.min.js"></script>');
    const none = app({ config: { APP_FRONTEND: { type: 'none' } }, files: { 'fluid/templates/f.html': '[{{frontend}}]' } });
    expect(none.render('f.html').toString()).toBe('[]');
  });

  it('url_for and static resolve through the route table', () => {
    const addRoot = makeProject();
    const f = app({
      config: { BASE_URL: 'https://example.com' },
      files: {
        'fluid/templates/u.html':
          '{{url_for "post" id="a b"}}|{{url_for "post" id=3 page=2}}|{{url_for "home" _external=true}}|{{static "css/app.css"}}|{{static "x.js" additive="blog"}}',
      },
    });
    f.additive(new Additive('blog', { root: addRoot }));
    f.app.get('home', '/', () => 'x');
    f.app.get('post', '/posts/:id', () => 'x');
    expect(f.render('u.html').toString()).toBe(
      '/posts/a%20b|/posts/3?page&#x3D;2|https://example.com/|/static/css/app.css|/blog/static/x.js',
    );
  });
});
