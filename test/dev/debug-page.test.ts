/**
 * The debug error page, on the same app run two ways: `fw dev` (DEBUG on through FW_ENV) shows
 * the error, the throwing line of the user's own file (tsx source-mapped), the route and the
 * request with credentials redacted, as HTML or JSON; `fw run` (production) answers the same
 * failures with the bare styled 500: no stack, no source, no file path (bug 7). A template with
 * merge conflict markers is a debug error naming the file and line, and in production a 500 whose
 * location is only in the log (bug 13: the markers used to reach the browser). A source file
 * with markers stops the boot with its file and line.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { cleanupDevProjects, devProject, DevRun, edit, htmxApp, requireBuild } from './helpers.js';

const BOOM = [
  '// A helper of the app that fails.',
  'export function explode(what: string): never {',
  '  const message = `kaboom from ${what}`;',
  '  throw new Error(message); // the throwing line',
  '}',
  '',
].join('\n');
const THROWING_LINE = 4;
const CONFLICT = '<p>before</p>\n<<<<<<< yours\n<p>mine</p>\n=======\n<p>theirs</p>\n>>>>>>> fw\n';
const SECRETS = { cookie: 'session=cookie-secret-123', authorization: 'Bearer token-secret-456' };

let root: string;

beforeAll(() => {
  requireBuild();
  const app = htmxApp();
  root = devProject({
    ...app,
    'fluid/boom.ts': BOOM,
    'fluid/templates/conflict.html': CONFLICT,
    'fluid/app.ts': app['fluid/app.ts']!.replace(
      'export default fluid;',
      [
        "import { explode } from './boom.js';",
        "fluid.app.get('boom', '/boom/:id', (ctx) => explode(`route ${ctx.params.id}`));",
        "fluid.api.get('api-boom', '/boom', () => explode('the api'));",
        "fluid.app.get('conflict', '/conflict', (ctx) => ctx.render('conflict.html'));",
        'export default fluid;',
      ].join('\n'),
    ),
  });
});

afterAll(() => cleanupDevProjects());

const html = (base: string, url: string) => fetch(`${base}${url}`, { headers: { accept: 'text/html', ...SECRETS } });
/** How many times `fw dev` has said the app exited with code 1 (a boot that failed). */
const exits = (dev: DevRun): number => dev.output.match(/the app exited \(code 1\)/g)?.length ?? 0;
const json = (base: string, url: string) => fetch(`${base}${url}`, { headers: { accept: 'application/json', ...SECRETS } });

describe('debug (fw dev)', () => {
  let dev: DevRun;
  beforeAll(async () => {
    dev = await DevRun.start(root, ['dev']);
    await dev.waitForBoot();
  }, 90_000);
  afterAll(async () => {
    await dev?.stop();
  });

  it("shows the error, the throwing line of the user's file, the route and the redacted request", async () => {
    const res = await html(dev.base, '/boom/7?x=1');
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const page = await res.text();
    expect(page).toContain('Error: kaboom from route 7');
    expect(page).toContain(`fluid/boom.ts:${THROWING_LINE}:`);
    expect(page).toMatch(new RegExp(`<span class="hit"><i>${THROWING_LINE}</i>  throw new Error\\(message\\); // the throwing line</span>`));
    expect(page).toContain('<tr><th>name</th><td>boom</td></tr>');
    expect(page).toContain('<tr><th>path</th><td>/boom/:id</td></tr>');
    expect(page).toContain('<tr><th>:id</th><td>7</td></tr>');
    expect(page).toContain('<tr><th>url</th><td>/boom/7?x&#x3D;1</td></tr>'); // escaped as Handlebars escapes
    expect(page).toContain('<tr><th>cookie</th><td>[redacted]</td></tr>');
    expect(page).not.toContain('cookie-secret-123');
    expect(page).not.toContain('token-secret-456');
    expect(page).toContain('<script src="/fluid/dev/reload.js" defer></script>'); // it reloads once fixed
  });

  it('shows the source excerpt one line per line in a browser (no blank line between them)', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${dev.base}/boom/7`);
      const lines = (await page.locator('pre.src').first().innerText()).split('\n').filter((l, i, all) => i < all.length - 1 || l !== '');
      expect(lines.length).toBeGreaterThan(3);
      for (const line of lines) expect(line).toMatch(/^\d+/); // every line starts with its number
      expect(lines.find((l) => l.startsWith(String(THROWING_LINE)))).toContain('throw new Error(message)');
    } finally {
      await browser.close();
    }
  });

  it('gives a JSON caller the same facts as JSON', async () => {
    const res = await json(dev.base, '/api/boom');
    expect(res.status).toBe(500);
    const body = (await res.json()) as {
      error: string;
      debug: { error: { message: string }; frames: { shown: string; line: number; app: boolean; excerpt?: { line: number; text: string }[] }[]; request: { headers: Record<string, string> }; route: { name: string } };
    };
    expect(body.error).toBe('Internal Server Error');
    expect(body.debug.error.message).toBe('kaboom from the api');
    const top = body.debug.frames.find((f) => f.app)!;
    expect(top.shown).toBe('fluid/boom.ts');
    expect(top.line).toBe(THROWING_LINE);
    expect(top.excerpt?.find((l) => l.line === THROWING_LINE)?.text).toContain('throw new Error(message)');
    expect(body.debug.route.name).toBe('api-boom');
    expect(body.debug.request.headers.authorization).toBe('[redacted]');
    expect(JSON.stringify(body)).not.toContain('secret-');
  });

  it('a template with conflict markers is an error naming the file and line, never the markers as a page (bug 13)', async () => {
    const res = await html(dev.base, '/conflict');
    expect(res.status).toBe(500);
    const page = await res.text();
    expect(page).toContain('ConflictMarkerError');
    expect(page).toContain('conflict.html:2: unresolved merge conflict marker (&lt;&lt;&lt;&lt;&lt;&lt;&lt;)');
    expect(page).toContain('The file: <code>fluid/templates/conflict.html:2:1</code>');
    expect(page).not.toContain('<p>mine</p>'); // shown escaped in the excerpt, never rendered
  });

  it('a source file with conflict markers stops the boot naming the file and line', async () => {
    const boom = path.join(root, 'fluid/boom.ts');
    const before = readFileSync(boom, 'utf8');
    const exited = exits(dev);
    edit(root, 'fluid/boom.ts', '  const message', '<<<<<<< yours\n  const mine = 1;\n=======\n  const theirs = 2;\n>>>>>>> fw\n  const message');
    await dev.waitFor(() => dev.output.includes('fluid/boom.ts:3: unresolved merge conflict marker'), 'the conflict error');
    // The fix is saved once the app has exited: saved earlier, it races the exit (a restart instead).
    await dev.waitFor(() => exits(dev) === exited + 1, 'the app to exit');
    edit(root, 'fluid/boom.ts', readFileSync(boom, 'utf8'), before);
    await dev.waitForBoot(2);
    expect((await html(dev.base, '/boom/1')).status).toBe(500);
  }, 120_000);

  it("an error fluid/app.ts throws while it loads names the file and line it was thrown at, and the app is back once it is fixed", async () => {
    const before = readFileSync(path.join(root, 'fluid/app.ts'), 'utf8');
    const exited = exits(dev);
    edit(root, 'fluid/app.ts', 'export default fluid;', "throw new Error('DATABASE_URL is not set');\nexport default fluid;");
    const line = before.split('\n').findIndex((l) => l === 'export default fluid;') + 1;
    await dev.waitFor(() => dev.output.includes('error: DATABASE_URL is not set'), 'the error');
    await dev.waitFor(() => exits(dev) === exited + 1, 'the app to exit');
    expect(dev.output).toContain(`error: DATABASE_URL is not set\n  at fluid/app.ts:${line}:`);
    edit(root, 'fluid/app.ts', "throw new Error('DATABASE_URL is not set');\n", '');
    await dev.waitForBoot(3);
    expect((await html(dev.base, '/boom/1')).status).toBe(500);
  }, 120_000);
});

describe('production (fw run)', () => {
  let run: DevRun;
  beforeAll(async () => {
    run = await DevRun.start(root, ['run']);
    await run.waitForBoot();
  }, 90_000);
  afterAll(async () => {
    await run?.stop();
  });

  it('answers the same error with the bare styled 500: no stack, no source, no file path', async () => {
    const res = await html(run.base, '/boom/7');
    expect(res.status).toBe(500);
    const page = await res.text();
    expect(page).toContain('Internal Server Error');
    for (const leak of ['kaboom', 'boom.ts', 'throw new Error', root, ' at ', 'Stack', '/fluid/dev/']) expect(page).not.toContain(leak);
    const api = await json(run.base, '/api/boom');
    expect(await api.json()).toEqual({ error: 'Internal Server Error' });
    // The log has it. The logger writes asynchronously, so the line may land just after the response.
    await run.waitFor(() => run.output.includes('kaboom from route 7'), 'the error in the log');
  });

  it('a template with conflict markers is a bare 500; the marker location is in the log only', async () => {
    const res = await html(run.base, '/conflict');
    expect(res.status).toBe(500);
    const page = await res.text();
    expect(page).not.toContain('conflict.html');
    expect(page).not.toContain('<<<<<<<');
    expect(page).not.toContain('mine');
    await run.waitFor(() => run.output.includes('conflict.html:2: unresolved merge conflict marker'), 'the marker location in the log');
  });
});
