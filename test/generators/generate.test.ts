/**
 * `fw generate`, `fw create additive`, `fw destroy additive` through the command list, in-process
 * on real temp projects: the outcomes of docs/regeneration.md, the registration codemods, dry-run
 * and --json, the lock and the clean-up of an interrupted run.
 */
import { spawnSync } from 'node:child_process';
import { access, appendFile, mkdir, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseAdditiveManifest } from '@fw/schemas';
import { readRecord } from '../../generators/src/pipeline/record.js';
import { acquireLock } from '../../generators/src/pipeline/lock.js';
import { editConfig, fw, linkKernel, newProject, read, snapshot } from './project-helpers.js';

const exists = (file: string): Promise<boolean> => access(file).then(() => true, () => false);
const ADDITIVE_FILES = [
  'api.ts', 'app.ts', 'index.ts', 'manifest.json', 'NAME.test.ts', 'static/NAME.css', 'templates/NAME/index.html',
];

describe('fw generate', () => {
  test('right after create project it writes nothing, not even .fw/', async () => {
    const root = await newProject();
    const before = await snapshot(root);
    const ran = await fw(root, 'generate');
    expect(ran).toMatchObject({ code: 0 });
    expect(ran.out).toMatch(/^\d+ files: \d+ unchanged\n$/);
    expect(await snapshot(root)).toEqual(before);
  });

  test('switching htmx -> htmx+alpine -> none merges into hand-edited files and keeps every edit', async () => {
    const root = await newProject();
    const index = 'fluid/templates/index.html';
    await writeFile(path.join(root, index), (await read(root, index)).replace('<body>', '<body>\n    <p>my banner</p>'));
    await appendFile(path.join(root, 'fluid/app.ts'), "\nfluid.app.get('about', '/about', () => 'about me');\n");
    await editConfig(root, (c) => (c.config.APP_FRONTEND = { type: 'htmx', alpine: true }));
    const alpine = await fw(root, 'generate');
    expect(alpine.code).toBe(0);
    expect(alpine.out).toMatch(/merge\s+fluid\/templates\/index\.html/);
    let html = await read(root, index);
    expect(html).toContain('<p>my banner</p>');
    expect(html).toContain('x-data="{ count: 0 }"');

    await editConfig(root, (c) => (c.config.APP_FRONTEND = { type: 'none' }));
    const none = await fw(root, 'generate');
    expect(none.code).toBe(0);
    html = await read(root, index);
    expect(html).toContain('<p>my banner</p>');
    expect(html).not.toContain('hx-get');
    expect(html).not.toContain('x-data');
    const app = await read(root, 'fluid/app.ts');
    expect(app).toContain("fluid.app.get('about', '/about', () => 'about me');");
    expect(app).not.toContain("'/hello'");
    const before = await snapshot(root);
    expect((await fw(root, 'generate')).code).toBe(0);
    expect(await snapshot(root)).toEqual(before);
  });

  test('switching the surface from htmx to vite/react adds the workspace and the wiring, keeps the app edit; back to htmx removes them', async () => {
    const root = await newProject();
    await appendFile(path.join(root, 'fluid/app.ts'), "\nfluid.app.get('about', '/about', () => 'about me');\n");
    await editConfig(root, (c) => (c.config.APP_FRONTEND = { type: 'vite', framework: 'react', typescript: true }));
    const vite = await fw(root, 'generate');
    expect(vite.code, vite.error).toBe(0);
    expect(vite.out).toMatch(/create\s+fluid\/frontend\/package\.json/);
    expect(vite.out).toMatch(/create\s+vite\.config\.js/);
    expect(vite.out).toMatch(/merge\s+fluid\/app\.ts/);
    expect(JSON.parse(await read(root, 'package.json')).workspaces).toEqual(['fluid/frontend']);
    expect(await read(root, 'fluid/app.ts')).toContain("'/about'");
    expect((await fw(root, 'generate')).out).toMatch(/^\d+ files: \d+ unchanged\n$/);
    await editConfig(root, (c) => (c.config.APP_FRONTEND = { type: 'htmx', alpine: false }));
    const back = await fw(root, 'generate');
    expect(back.out).toMatch(/delete\s+vite\.config\.js/);
    expect(await exists(path.join(root, 'fluid/frontend/package.json'))).toBe(false);
    expect(JSON.parse(await read(root, 'package.json')).workspaces).toBeUndefined();
    expect(await read(root, 'fluid/app.ts')).toContain("'/about'");
  });

  describe('switching a vite surface back to htmx after a build', () => {
    const REPO = path.resolve(import.meta.dirname, '../..');
    const git = (root: string, ...args: string[]): string => {
      const ran = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
      if (ran.status !== 0) throw new Error(`git ${args.join(' ')}: ${ran.stderr}`);
      return ran.stdout;
    };
    /** A committed vite/react project whose workspace Vite really built into fluid/frontend/dist. */
    async function builtViteProject(): Promise<string> {
      const root = await newProject();
      await editConfig(root, (c) => (c.config.APP_FRONTEND = { type: 'vite', framework: 'react', typescript: true }));
      expect((await fw(root, 'generate')).code).toBe(0);
      // The workspace's packages resolve from the checkout's, through a node_modules beside the project.
      await symlink(path.join(REPO, 'node_modules'), path.join(path.dirname(root), 'node_modules'), 'dir');
      const build = spawnSync(process.execPath, [path.join(REPO, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: path.join(root, 'fluid/frontend'), encoding: 'utf8', timeout: 120_000 });
      expect(build.status, build.stderr).toBe(0);
      expect(await exists(path.join(root, 'fluid/frontend/dist/index.html'))).toBe(true);
      git(root, 'init', '-q');
      git(root, 'add', '-A');
      git(root, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'vite');
      return root;
    }
    const untracked = (root: string): string[] =>
      git(root, 'status', '--porcelain', '--untracked-files=all').split('\n').filter((l) => l.startsWith('??')).map((l) => l.slice(3));

    test('removes the build output of the workspace it removes: git status shows no build output', async () => {
      const root = await builtViteProject();
      const built = git(root, 'ls-files', '--others', '--ignored', '--exclude-standard', 'fluid/frontend/dist').split('\n').filter(Boolean);
      expect(built).toContain('fluid/frontend/dist/index.html');
      await editConfig(root, (c) => (c.config.APP_FRONTEND = { type: 'htmx' }));
      const back = await fw(root, 'generate');
      expect(back.code, back.error).toBe(0);
      for (const file of built) expect(back.out).toContain(`delete              ${file}  (build output of fluid/frontend, whose vite.config this run removes)`);
      expect(await exists(path.join(root, 'fluid/frontend/dist'))).toBe(false);
      expect(await exists(path.join(root, 'fluid/frontend/src'))).toBe(false); // no empty folders left
      expect(untracked(root).filter((f) => f.startsWith('fluid/frontend'))).toEqual([]);
      expect((await fw(root, 'generate')).out).toMatch(/^\d+ files: \d+ unchanged\n$/);
    }, 180_000);

    test('an edited vite.config keeps the workspace yours: its build output stays, still ignored, until you delete it', async () => {
      const root = await builtViteProject();
      await appendFile(path.join(root, 'fluid/frontend/vite.config.ts'), '// my build tweaks\n');
      await writeFile(path.join(root, 'fluid/frontend/dist/mine.txt'), 'not fw\'s to judge\n');
      await editConfig(root, (c) => (c.config.APP_FRONTEND = { type: 'htmx' }));
      const back = await fw(root, 'generate');
      expect(back.code, back.error).toBe(0);
      expect(back.out).toMatch(/keep-edited\s+fluid\/frontend\/vite\.config\.ts/);
      expect(back.out).not.toContain('fluid/frontend/dist');
      expect(await read(root, 'fluid/frontend/dist/mine.txt')).toBe('not fw\'s to judge\n');
      expect(await read(root, '.gitignore')).toContain('\nfluid/frontend/dist\n');
      expect(untracked(root).filter((f) => f.startsWith('fluid/frontend/dist'))).toEqual([]);
      expect((await fw(root, 'generate')).out).toMatch(/^\d+ files: \d+ unchanged\n$/);
      await rm(path.join(root, 'fluid/frontend/dist'), { recursive: true });
      expect((await fw(root, 'generate')).out).toMatch(/update\s+\.gitignore/);
      expect(await read(root, '.gitignore')).not.toContain('fluid/frontend/dist');
    }, 180_000);
  });

  test('overlapping edits: conflict markers, a summary, exit 1; --json says the same', async () => {
    const root = await newProject();
    await writeFile(path.join(root, 'test/home.test.ts'), (await read(root, 'test/home.test.ts')).replace('test("the hello button\'s fragment says hello"', "test('GET /hello answers (mine)'"));
    await editConfig(root, (c) => (c.config.APP_FRONTEND = { type: 'none' }));
    const dry = await fw(root, 'generate', '--dry-run', '--json');
    const json = JSON.parse(dry.out);
    expect(json).toMatchObject({ exitCode: 1, dryRun: true, conflicts: { files: ['test/home.test.ts'] } });
    expect(json.files.find((f: { path: string }) => f.path === 'test/home.test.ts').diff).toContain('<<<<<<< ours');
    const ran = await fw(root, 'generate');
    expect(ran.code).toBe(1);
    expect(ran.out).toMatch(/conflict\s+test\/home\.test\.ts/);
    expect(ran.out).toContain('Then run `fw generate` again.');
    expect(await read(root, 'test/home.test.ts')).toContain('<<<<<<< ours (your edit)');
    expect((await fw(root, 'generate')).code).toBe(1); // markers still there
  });

  test('a deleted file stays deleted and is reported', async () => {
    const root = await newProject();
    await unlink(path.join(root, 'README.md'));
    await editConfig(root, (c) => (c.config.APP_FRONTEND = { type: 'htmx', alpine: true }));
    const ran = await fw(root, 'generate');
    expect(ran.out).toMatch(/skip-deleted\s+README\.md/);
    expect(await exists(path.join(root, 'README.md'))).toBe(false);
  });

  test('--dry-run classifies, prints unified diffs and writes nothing', async () => {
    const root = await newProject();
    await editConfig(root, (c) => {
      c.config.APP_FRONTEND = { type: 'none' };
      c.additives.push('blog');
    });
    const before = await snapshot(root);
    const dry = await fw(root, 'generate', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('--- a/fluid/templates/index.html\n+++ b/fluid/templates/index.html');
    expect(dry.out).toContain('+++ b/additives/blog/index.ts');
    expect(dry.out).toContain("+import blog from '../additives/blog/index.js';");
    expect(dry.out).toMatch(/register\s+fluid\/app\.ts/);
    expect(dry.out).toMatch(/Dry run: nothing was written\.\n$/);
    expect(await snapshot(root)).toEqual(before);
  });

  test('a CRLF checkout (core.autocrlf) is not an edit: nothing is written', async () => {
    const root = await newProject();
    const record = await readRecord(root);
    for (const file of Object.keys(record!.files)) {
      const text = await read(root, file);
      await writeFile(path.join(root, file), text.replace(/\n/g, '\r\n'));
    }
    const before = await snapshot(root);
    const ran = await fw(root, 'generate');
    expect(ran.code).toBe(0);
    expect(await snapshot(root)).toEqual(before);
  });

  test('removes the temp files of an interrupted run', async () => {
    const root = await newProject();
    // What a run killed while writing leaves behind, besides its temp files.
    await writeFile(path.join(root, '.fw/cache/applying'), '4242\n');
    await writeFile(path.join(root, 'fluid/app.ts.fw-tmp-0123456789ab'), 'half');
    await writeFile(path.join(root, 'fluid/templates/index.html.fw-tmp-ba9876543210'), 'half');
    const ran = await fw(root, 'generate');
    expect(ran.out).toContain('Removed 2 temp file(s) of an interrupted run');
    expect(await exists(path.join(root, 'fluid/app.ts.fw-tmp-0123456789ab'))).toBe(false);
  });

  test('outside a project, or with a bad fw.json, the error names what is wrong', async () => {
    const root = await newProject();
    expect((await fw(path.dirname(root), 'generate')).error).toMatch(/^no fw\.json found in /);
    await editConfig(root, (c) => (c.config.APP_FRONTEND = { type: 'htmx', framework: 'react' }));
    expect((await fw(root, 'generate')).error).toMatch(/fw\.json:\d+:\d+: config\.APP_FRONTEND/);
    await writeFile(path.join(root, 'fw.json'), '{ nope');
    expect((await fw(root, 'generate')).error).toMatch(/^fw\.json:1:\d+: not valid JSON/);
    expect((await fw(root, 'generate', 'extra')).error).toMatch(/unexpected argument extra/);
  });
});

describe('config changes that reach other renders', () => {
  test('adding a role regenerates fluid/guards.ts around a hand edit; adding a locale adds its typed module and a starter catalog', async () => {
    const root = await newProject();
    await editConfig(root, (c) => {
      c.config.AUTH_ROLES = ['editor'];
      c.config.I18N_SUPPORTED_LOCALES = ['en'];
    });
    const first = await fw(root, 'generate');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/create\s+fluid\/guards\.ts/);
    expect(first.out).toMatch(/create\s+fluid\/i18n\/en\/index\.ts/);
    expect(first.out).toMatch(/seed\s+fluid\/locales\/en\.po/);
    // The typed modules import typesafe-i18n at run time: the app depends on fw's own pin of it.
    expect(JSON.parse(await read(root, 'package.json')).dependencies['typesafe-i18n']).toBe('5.27.1');
    const guards = await read(root, 'fluid/guards.ts');
    await writeFile(path.join(root, 'fluid/guards.ts'), guards.replace("import { requirePermission", "// my note about guards\nimport { requirePermission"));
    await editConfig(root, (c) => {
      c.config.AUTH_ROLES = ['editor', 'author'];
      c.config.I18N_SUPPORTED_LOCALES = ['en', 'fr'];
    });
    const second = await fw(root, 'generate');
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/merge\s+fluid\/guards\.ts/);
    const merged = await read(root, 'fluid/guards.ts');
    expect(merged).toContain('// my note about guards');
    expect(merged).toContain("requireRole('author')");
    expect(second.out).toMatch(/create\s+fluid\/i18n\/fr\/index\.ts/);
    expect(second.out).toMatch(/seed\s+fluid\/locales\/fr\.po/);
    const before = await snapshot(root);
    expect((await fw(root, 'generate')).out).toMatch(/^\d+ files: \d+ unchanged\n$/);
    expect(await snapshot(root)).toEqual(before);
  }, 60_000);
});

describe('a kept edited file whose imports this run removes', () => {
  test('removing every locale keeps an edited fluid/i18n/formatters.ts and the note names it, what it imports that goes, and what to do', async () => {
    const root = await newProject();
    await editConfig(root, (c) => (c.config.I18N_SUPPORTED_LOCALES = ['en', 'fr']));
    expect((await fw(root, 'generate')).code).toBe(0);
    const formatters = 'fluid/i18n/formatters.ts';
    const edited = (await read(root, formatters)).replace('// add your formatter functions here', 'upper: (value: string) => value.toUpperCase(),');
    await writeFile(path.join(root, formatters), edited);
    await editConfig(root, (c) => delete c.config.I18N_SUPPORTED_LOCALES);
    const dry = await fw(root, 'generate', '--dry-run');
    const note =
      'note: fluid/i18n/formatters.ts is kept because you edited it, but it imports typesafe-i18n (removed from package.json by this run) and ./i18n-types.js (deleted by this run), ' +
      'so tsc fails on it: delete it if you no longer need it (git history keeps your edit), or set I18N_SUPPORTED_LOCALES in fw.json again';
    expect(dry.out).toContain(note);
    const run = await fw(root, 'generate');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/keep-edited\s+fluid\/i18n\/formatters\.ts/);
    expect(run.out).toMatch(/delete\s+fluid\/i18n\/i18n-types\.ts/);
    expect(run.out).toContain(note);
    expect(await read(root, formatters)).toBe(edited);
    // Once the file is dealt with, the note is gone.
    await rm(path.join(root, formatters));
    expect((await fw(root, 'generate')).out).not.toContain('note:');
  }, 60_000);
});

describe('package.json edited by the user', () => {
  test('a dependency the user added and one fw adds (typesafe-i18n for locales) merge by key, not as a conflict', async () => {
    const root = await newProject();
    const pkg = JSON.parse(await read(root, 'package.json')) as { scripts: Record<string, string>; dependencies: Record<string, string> };
    pkg.dependencies.zod = '4.1.0'; // what `npm install zod` leaves: sorted, next to @fw/kernel
    pkg.scripts.check = 'tsc --noEmit && eslint .';
    await writeFile(path.join(root, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    await editConfig(root, (c) => {
      c.config.I18N_SUPPORTED_LOCALES = ['en', 'pl'];
    });
    const run = await fw(root, 'generate');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/merge\s+package\.json/);
    const merged = await read(root, 'package.json');
    expect(merged).not.toContain('<<<<<<<');
    const after = JSON.parse(merged) as typeof pkg;
    expect(Object.keys(after.dependencies)).toEqual(['@fw/kernel', 'typesafe-i18n', 'zod']);
    expect(after.scripts.check).toBe('tsc --noEmit && eslint .');
    // The user's change of a dependency fw changes too is still a real overlap.
    await editConfig(root, (c) => {
      delete c.config.I18N_SUPPORTED_LOCALES;
    });
    await writeFile(path.join(root, 'package.json'), merged.replace('"typesafe-i18n": "5.27.1"', '"typesafe-i18n": "5.26.0"'));
    const clash = await fw(root, 'generate');
    expect(clash.code).toBe(1);
    expect(clash.out).toMatch(/conflict\s+package\.json/);
    expect(await read(root, 'package.json')).toContain('<<<<<<< ours (your edit)');
  }, 60_000);
});

describe('package.json: a dependency the user installed before fw adds it', () => {
  test('at the range `npm install name@<fw\'s pin>` writes (^x.y.z): no conflict, the user\'s range stays', async () => {
    const root = await newProject();
    const pkg = JSON.parse(await read(root, 'package.json')) as { dependencies: Record<string, string> };
    pkg.dependencies['typesafe-i18n'] = '^5.27.1'; // `npm install typesafe-i18n@5.27.1`, before turning locales on
    await writeFile(path.join(root, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    await editConfig(root, (c) => {
      c.config.I18N_SUPPORTED_LOCALES = ['en', 'pl'];
    });
    const run = await fw(root, 'generate');
    expect(run.code).toBe(0);
    const merged = await read(root, 'package.json');
    expect(merged).not.toContain('<<<<<<<');
    expect((JSON.parse(merged) as typeof pkg).dependencies['typesafe-i18n']).toBe('^5.27.1');
    // Another range (one that need not hold fw's version) is still a conflict.
    const root2 = await newProject();
    const pkg2 = JSON.parse(await read(root2, 'package.json')) as typeof pkg;
    pkg2.dependencies['typesafe-i18n'] = '^5.26.0';
    await writeFile(path.join(root2, 'package.json'), `${JSON.stringify(pkg2, null, 2)}\n`);
    await editConfig(root2, (c) => {
      c.config.I18N_SUPPORTED_LOCALES = ['en', 'pl'];
    });
    expect((await fw(root2, 'generate')).code).toBe(1);
    expect(await read(root2, 'package.json')).toContain('<<<<<<< ours (your edit)');
  }, 90_000);
});

describe('an Additive added to fw.json by hand', () => {
  test('whose mount path clashes with a route of the app: rendered, and the note says what clashes, as fw create additive would', async () => {
    const root = await newProject();
    const app = await read(root, 'fluid/app.ts');
    await writeFile(path.join(root, 'fluid/app.ts'), `${app}\nfluid.app.get('shop', '/shop', () => 'mine');\n`);
    expect((await fw(root, 'create', 'additive', 'shop')).error).toMatch(/^additive "shop" clashes with what the app already has:/);
    await editConfig(root, (c) => {
      c.additives = ['shop'];
    });
    const run = await fw(root, 'generate');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/create\s+additives\/shop\/index\.ts/);
    expect(run.out).toContain('  note: additive "shop" clashes with what the app already has:\n  - ');
    expect(run.out).toContain('\nRename it in fw.json "additives", or move the route or template it clashes with.\n');
    // Once rendered, it is the project's: the next run says nothing more.
    expect((await fw(root, 'generate')).out).toMatch(/^\d+ files: \d+ unchanged\n$/);
  }, 60_000);
});

describe('a file where fw needs a folder', () => {
  test('is named with the fix, and nothing is written (not a raw ENOTDIR)', async () => {
    const root = await newProject();
    await writeFile(path.join(root, 'additives'), 'notes, not a folder\n');
    await editConfig(root, (c) => {
      c.additives = ['shop'];
    });
    const before = await snapshot(root);
    const run = await fw(root, 'generate');
    expect(run.code).toBe(1);
    expect(run.error).toMatch(/^Cannot write additives\/shop\/[\w./]+: additives is a file, not a folder; move or rename it, then run again$/);
    expect(await snapshot(root)).toEqual(before);
  }, 60_000);
});

describe('fluid/app.ts in conflict', () => {
  test('the note names only the registrations still to do, not an Additive the file already registers', async () => {
    const root = await newProject();
    expect((await fw(root, 'create', 'additive', 'blog')).code).toBe(0);
    expect((await fw(root, 'create', 'additive', 'shop')).code).toBe(0);
    const app = await read(root, 'fluid/app.ts');
    const edited = app
      .replace("import shop from '../additives/shop/index.js';\n", '')
      .replace('fluid.additive(shop);\n', '')
      .replace("{ title: 'demo' }", "{ title: 'Demo (mine)' }");
    expect(edited).not.toBe(app);
    await writeFile(path.join(root, 'fluid/app.ts'), edited);
    // The Vite surface renders the line of the home route differently: an overlap with the edit.
    await editConfig(root, (c) => {
      c.config.APP_FRONTEND = { type: 'vite', framework: 'none' };
    });
    const run = await fw(root, 'generate');
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/conflict\s+fluid\/app\.ts/);
    expect(run.out).toContain('note: fluid/app.ts has conflicts: resolve them, then run `fw generate` again to register shop\n');
  }, 60_000);
});

describe('the project lock', () => {
  test('a second generator on the same project fails naming the holder pid; a stale lock is taken over', async () => {
    const root = await newProject();
    const release = await acquireLock(root, 'test holder');
    const blocked = await fw(root, 'generate');
    expect(blocked.code).toBe(1);
    expect(blocked.error).toContain(`pid ${process.pid}`);
    expect(blocked.error).toContain('"test holder"');
    expect((await fw(root, 'create', 'additive', 'blog')).error).toContain(`pid ${process.pid}`);
    await release();
    expect(await exists(path.join(root, '.fw/lock'))).toBe(false);

    // A lock left by a process that is gone (SIGKILLed) does not block.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const { hostname } = await import('node:os');
    await writeFile(path.join(root, '.fw/lock'), JSON.stringify({ pid: Number(dead.stdout), host: hostname(), command: 'fw generate', since: 'earlier' }));
    expect((await fw(root, 'generate')).code).toBe(0);
    expect(await exists(path.join(root, '.fw/lock'))).toBe(false);
  });
});

describe('fw create additive', () => {
  test('writes a validated manifest and typed modules, lists it in fw.json and registers it once', async () => {
    const root = await newProject();
    const ran = await fw(root, 'create', 'additive', 'blog');
    expect(ran).toMatchObject({ code: 0 });
    const files = ADDITIVE_FILES.map((f) => `additives/blog/${f.replace(/NAME/g, 'blog')}`);
    for (const file of files) expect(await exists(path.join(root, file)), file).toBe(true);
    const manifest = parseAdditiveManifest(JSON.parse(await read(root, 'additives/blog/manifest.json')), 'manifest.json');
    expect(manifest).toMatchObject({ name: 'blog', version: '0.1.0', frontend: { type: 'none' } });
    expect(JSON.parse(await read(root, 'fw.json')).additives).toEqual(['blog']);
    const app = await read(root, 'fluid/app.ts');
    expect(app.match(/fluid\.additive\(blog\);/g)).toHaveLength(1);
    expect(app).toContain("import blog from '../additives/blog/index.js';");
    const record = await readRecord(root);
    for (const file of files) expect(record!.files[file]?.generator).toBe('additive:blog');
    expect(await read(root, 'additives/blog/api.ts')).toContain('export const status: Handler =');

    // a second additive goes after the first registration; generate then writes nothing
    expect((await fw(root, 'create', 'additive', 'shop-items')).code).toBe(0);
    expect(await read(root, 'fluid/app.ts')).toMatch(/fluid\.additive\(blog\);\nfluid\.additive\(shopItems\);/);
    const before = await snapshot(root);
    expect((await fw(root, 'generate')).out).toMatch(/^\d+ files: \d+ unchanged\n$/);
    expect(await snapshot(root)).toEqual(before);
  });

  test('bad and clashing names are refused before anything is written', async () => {
    const root = await newProject();
    const before = await snapshot(root);
    expect((await fw(root, 'create', 'additive', 'api')).error).toMatch(/additive name "api"/);
    expect((await fw(root, 'create', 'additive', '../x')).error).toMatch(/additive name "\.\.\/x"/);
    expect((await fw(root, 'create', 'additive', 'Blog')).error).toMatch(/additive name "Blog"/);
    expect((await fw(root, 'create', 'additive')).error).toMatch(/missing <name>/);
    expect(await snapshot(root)).toEqual(before);
    expect((await fw(root, 'create', 'additive', 'blog')).code).toBe(0);
    expect((await fw(root, 'create', 'additive', 'blog')).error).toBe('additive "blog" already exists: fw.json "additives" lists it');
    await mkdir(path.join(root, 'additives/shop'), { recursive: true });
    expect((await fw(root, 'create', 'additive', 'shop')).error).toMatch(/^additives\/shop already exists/);
  });

  test('again after deleting its folder and fw.json entry by hand: says how, instead of a JSON error on an empty manifest', async () => {
    const root = await newProject();
    expect((await fw(root, 'create', 'additive', 'blog')).code).toBe(0);
    await rm(path.join(root, 'additives/blog'), { recursive: true });
    await editConfig(root, (json) => {
      json.additives = [];
    });
    expect((await fw(root, 'create', 'additive', 'blog')).error).toBe(
      'fw create additive: additives/blog/ was created before and its files deleted by hand, and fw keeps what you delete deleted. Run "fw destroy additive blog --force" to forget it, then create it again.',
    );
    expect((await fw(root, 'destroy', 'additive', 'blog', '--force')).code).toBe(0);
    expect((await fw(root, 'create', 'additive', 'blog')).code).toBe(0);
    expect(await exists(path.join(root, 'additives/blog/manifest.json'))).toBe(true);
  });

  test('--dry-run lists the files and writes nothing', async () => {
    const root = await newProject();
    const before = await snapshot(root);
    const dry = await fw(root, 'create', 'additive', 'blog', '--dry-run');
    expect(dry.out).toMatch(/create\s+additives\/blog\/index\.ts/);
    expect(await snapshot(root)).toEqual(before);
  });
});

describe('renaming and destroying additives', () => {
  test('renaming in fw.json: unedited old files go, edited ones stay reported, the registration follows', async () => {
    const root = await newProject();
    await fw(root, 'create', 'additive', 'blog');
    await appendFile(path.join(root, 'additives/blog/api.ts'), '// mine\n');
    await editConfig(root, (c) => (c.additives = ['news']));
    const ran = await fw(root, 'generate');
    expect(ran.code).toBe(0);
    expect(ran.out).toMatch(/keep-edited\s+additives\/blog\/api\.ts/);
    expect(ran.out).toMatch(/delete\s+additives\/blog\/index\.ts/);
    expect(ran.out).toMatch(/create\s+additives\/news\/index\.ts/);
    const app = await read(root, 'fluid/app.ts');
    expect(app).toContain('fluid.additive(news);');
    expect(app).not.toContain('blog');
    expect(await read(root, 'additives/blog/api.ts')).toContain('// mine');
  });

  test('removing an additive from fw.json removes the folders it leaves empty, so "fw create additive" takes the name again', async () => {
    const root = await newProject();
    await fw(root, 'create', 'additive', 'blog');
    await fw(root, 'create', 'additive', 'news');
    await appendFile(path.join(root, 'additives/news/api.ts'), '// mine\n');
    await editConfig(root, (c) => (c.additives = []));
    expect((await fw(root, 'generate')).code).toBe(0);
    expect(await exists(path.join(root, 'additives/blog'))).toBe(false);
    // The edited file stays; the folders its removed neighbours left empty go.
    expect(await read(root, 'additives/news/api.ts')).toContain('// mine');
    expect(await exists(path.join(root, 'additives/news/static'))).toBe(false);
    expect(await exists(path.join(root, 'additives/news/templates'))).toBe(false);
    const again = await fw(root, 'create', 'additive', 'blog');
    expect(again.error).toBeUndefined();
    expect(again.code).toBe(0);
  });

  test('destroy refuses an edited file (changing nothing), --force removes it; the registration and fw.json entry go', async () => {
    const root = await newProject();
    const pristine = await read(root, 'fluid/app.ts');
    await fw(root, 'create', 'additive', 'blog');
    await appendFile(path.join(root, 'additives/blog/app.ts'), '// mine\n');
    await writeFile(path.join(root, 'additives/blog/notes.md'), 'my notes\n');
    const before = await snapshot(root);
    const refused = await fw(root, 'destroy', 'additive', 'blog');
    expect(refused.code).toBe(1);
    expect(refused.error).toMatch(/you edited 1 file\(s\) of additive "blog", so nothing was removed: additives\/blog\/app\.ts\. Pass --force/);
    expect(await snapshot(root)).toEqual(before);

    const forced = await fw(root, 'destroy', 'additive', 'blog', '--force');
    expect(forced.code).toBe(0);
    expect(forced.out).toContain('Kept files fw did not generate: additives/blog/notes.md');
    expect(await read(root, 'fluid/app.ts')).toBe(pristine);
    expect(JSON.parse(await read(root, 'fw.json')).additives).toEqual([]);
    expect(await exists(path.join(root, 'additives/blog/app.ts'))).toBe(false);
    const record = await readRecord(root);
    expect(Object.values(record!.files).some((e) => e.generator === 'additive:blog')).toBe(false);
    expect((await fw(root, 'destroy', 'additive', 'blog')).error).toMatch(/^no additive "blog"/);
    await rm(path.join(root, 'additives/blog'), { recursive: true });
    expect((await fw(root, 'generate')).out).toMatch(/^\d+ files: \d+ unchanged\n$/);
  });
});

describe('fw migrate (argv and init through the record)', () => {
  test('init writes the environment through the record; adding a bind is picked up by fw generate', async () => {
    const root = await newProject();
    const init = await fw(root, 'migrate', 'init');
    expect(init.code).toBe(0);
    expect(init.out).toMatch(/create\s+prisma\/main\/schema\.prisma/);
    const record = await readRecord(root);
    expect(record!.files['prisma/main/schema.prisma']?.generator).toBe('migrate');
    expect(record!.files['prisma.config.ts']?.generator).toBe('migrate');
    // The generated clients need @prisma/client, and `fw migrate` runs the project's own prisma CLI.
    const pkg = JSON.parse(await read(root, 'package.json'));
    expect(pkg.dependencies['@prisma/client']).toBe('7.10.0');
    expect(pkg.devDependencies.prisma).toBe('7.10.0');
    expect((await fw(root, 'generate')).out).toMatch(/^\d+ files: \d+ unchanged\n$/);

    await appendFile(path.join(root, 'prisma/main/schema.prisma'), '\nmodel Post {\n  id Int @id\n}\n');
    await editConfig(root, (c) => (c.config.DATABASE_BINDS = { main: 'file:./var/main.db', reports: 'file:./var/reports.db' }));
    const ran = await fw(root, 'generate');
    expect(ran.code).toBe(0);
    expect(ran.out).toMatch(/create\s+prisma\/reports\/schema\.prisma/);
    expect(ran.out).toMatch(/delete\s+prisma\.config\.ts/); // single-bind root config goes (never edited)
    expect(await read(root, 'prisma/main/schema.prisma')).toContain('model Post {');
  });

  test('argv: unknown action, flags init does not take, reset without --force, a bind that does not exist', async () => {
    const root = await newProject();
    expect((await fw(root, 'migrate')).error).toMatch(/^fw migrate: got nothing; expected one of init, dev, deploy, status, reset, diff/);
    expect((await fw(root, 'migrate', 'up')).error).toMatch(/got "up"/);
    expect((await fw(root, 'migrate', 'init', '--bind', 'main')).error).toMatch(/--bind does not apply to init/);
    await linkKernel(root);
    expect((await fw(root, 'migrate', 'reset')).error).toMatch(/refusing without --force/);
    expect((await fw(root, 'migrate', 'status', '--bind', 'nope')).error).toMatch(/--bind nope: no such bind/);
    expect((await fw(root, 'migrate', 'deploy', '--name', 'x')).error).toMatch(/--name applies to "fw migrate dev" only/);
    expect((await fw(root, 'migrate', 'dev')).error).toMatch(/no terminal is attached/);
    await rm(path.join(root, 'node_modules'), { recursive: true });
    expect((await fw(root, 'migrate', '--help')).out).toContain('Usage: fw migrate <action>');
    const before = await snapshot(root);
    expect((await fw(root, 'migrate', 'init', '--dry-run')).out).toContain('+++ b/prisma/main/schema.prisma');
    expect(await snapshot(root)).toEqual(before);
  });
});

describe('the record in git', () => {
  test('committed, then cloned elsewhere with core.autocrlf=true: fw generate writes nothing; an executable bit you set is kept', async () => {
    const root = await newProject();
    await fw(root, 'create', 'additive', 'blog');
    const git = (cwd: string, ...args: string[]) => {
      const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
      if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };
    await writeFile(path.join(root, 'additives/blog/tool.sh'), '#!/bin/sh\necho mine\n', { mode: 0o755 });
    spawnSync('chmod', ['+x', path.join(root, 'additives/blog/api.ts')]);
    git(root, 'init', '-q');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'app');
    const clone = path.join(path.dirname(root), 'elsewhere');
    git(path.dirname(root), '-c', 'core.autocrlf=true', 'clone', '-q', '--config', 'core.autocrlf=true', root, clone);
    expect(await read(clone, 'fluid/app.ts')).toContain('\r\n');
    const before = await snapshot(clone);
    const ran = await fw(clone, 'generate');
    expect(ran.code).toBe(0);
    expect(ran.out).toMatch(/^\d+ files: \d+ unchanged\n$/);
    // The first run in a fresh clone fills the local cache (.fw/cache/, never committed); nothing git tracks changes.
    const tracked = (files: Map<string, unknown>) => new Map([...files].filter(([f]) => !f.startsWith('.fw/cache/')));
    expect(tracked(await snapshot(clone))).toEqual(tracked(before));
    expect((before.get('additives/blog/api.ts')!.mode & 0o111) !== 0).toBe(true);
  });
});

describe('fw ocean install (argv and register)', () => {
  test('register: the package import and fw.json entry; fw generate then generates nothing for it', async () => {
    const root = await newProject();
    const { registerInstalled } = await import('../../generators/src/commands/ocean-install.js');
    await registerInstalled(root, [
      { id: 'blog', package: '@fw/additive-blog', version: '1.1.0', spec: '@fw/additive-blog@1.1.0', directory: path.join(root, 'node_modules/@fw/additive-blog') },
    ]);
    const app = await read(root, 'fluid/app.ts');
    expect(app).toContain("import blog from '@fw/additive-blog';");
    expect(app).toContain('fluid.additive(blog);');
    expect(JSON.parse(await read(root, 'fw.json')).additives).toEqual(['blog']);
    const before = await snapshot(root);
    expect((await fw(root, 'generate')).out).toMatch(/^\d+ files: \d+ unchanged\n$/);
    expect(await snapshot(root)).toEqual(before);
    expect(await exists(path.join(root, 'additives/blog'))).toBe(false);
  });

  test('fw destroy additive of an installed Additive removes its fw.json entry and its registration, and names the package to uninstall', async () => {
    const root = await newProject();
    const pristine = await read(root, 'fluid/app.ts');
    const { registerInstalled } = await import('../../generators/src/commands/ocean-install.js');
    await registerInstalled(root, [
      { id: 'health', package: '@fw/additive-health', version: '0.1.0', spec: '@fw/additive-health@0.1.0', directory: path.join(root, 'node_modules/@fw/additive-health') },
    ]);
    const before = await snapshot(root);
    const dry = await fw(root, 'destroy', 'additive', 'health', '--dry-run');
    expect(dry.code).toBe(0);
    expect(await snapshot(root)).toEqual(before);
    const ran = await fw(root, 'destroy', 'additive', 'health');
    expect(ran.error).toBeUndefined();
    expect(ran.out).toMatch(/unregister\s+fluid\/app\.ts/);
    expect(ran.out).toContain('Its package stays installed: run "npm uninstall @fw/additive-health" to remove it.');
    expect(await read(root, 'fluid/app.ts')).toBe(pristine);
    expect(JSON.parse(await read(root, 'fw.json')).additives).toEqual([]);
    expect((await fw(root, 'generate')).out).toMatch(/^\d+ files: \d+ unchanged\n$/);
  });

  test('--help prints the usage; outside a project it fails naming the folder', async () => {
    const root = await newProject();
    expect((await fw(root, 'ocean', 'install', '--help')).out).toContain('Usage: fw ocean install');
    expect((await fw(path.dirname(root), 'ocean', 'install', 'blog')).error).toMatch(/^no fw\.json found in /);
  });
});
