/**
 * `fw create auth` through the pipeline: the dry run writes nothing and plans exactly what the
 * real run does; a second run changes nothing; a project without it gets no scaffold from
 * `fw generate`; AUTH_TWO_FACTOR false renders no two-factor files.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { editConfig } from '../generators/project-helpers.js';
import { dryRunThenRun, fw, project } from '../make/helpers.js';

const made: Array<{ remove: () => Promise<void> }> = [];
afterAll(() => Promise.all(made.map((p) => p.remove())));

describe('fw create auth', () => {
  it('plans in a dry run what it then writes, and a second run changes nothing', async () => {
    const app = await project();
    made.push(app);
    expect(existsSync(path.join(app.root, 'fluid/auth/index.ts'))).toBe(false);
    const planned = await dryRunThenRun(app.root, 'create', 'auth');
    const created = planned.filter((f) => f.action === 'create').map((f) => f.path);
    expect(created).toEqual(expect.arrayContaining(['fluid/db.ts', 'fluid/auth/users.ts', 'fluid/auth/two-factor.ts', 'fluid/templates/auth/sign-in.html', 'prisma/main/schema.prisma', 'fluid/guards.ts']));
    expect(created).not.toContain('fluid/auth/api.ts');
    const record = JSON.parse(await readFile(path.join(app.root, '.fw/record.json'), 'utf8')) as { files: Record<string, { generator: string }> };
    expect(record.files['fluid/auth/users.ts']?.generator).toBe('auth-scaffold');
    const config = JSON.parse(await readFile(path.join(app.root, 'fw.json'), 'utf8')) as { config: Record<string, unknown> };
    expect(config.config).toMatchObject({ BASE_URL: 'http://127.0.0.1:8000', MAIL_DEFAULT_SENDER: 'app <no-reply@localhost>' });

    const again = await fw(app.root, 'create', 'auth', '--json');
    const actions = (JSON.parse(again.out) as { files: Array<{ action: string }> }).files.map((f) => f.action);
    expect(new Set(actions)).toEqual(new Set(['unchanged']));
    const appFile = await readFile(path.join(app.root, 'fluid/app.ts'), 'utf8');
    expect(appFile.match(/installAuthScaffold\(fluid\);/g)).toHaveLength(1);
  });

  it('renders no two-factor files with AUTH_TWO_FACTOR false, and fw generate alone adds no scaffold', async () => {
    const app = await project();
    made.push(app);
    expect((await fw(app.root, 'generate')).code).toBe(0);
    expect(existsSync(path.join(app.root, 'fluid/auth'))).toBe(false);
    await editConfig(app.root, (json) => {
      json.config.AUTH_TWO_FACTOR = false;
    });
    const run = await fw(app.root, 'create', 'auth');
    expect(run.error).toBeUndefined();
    expect(existsSync(path.join(app.root, 'fluid/auth/two-factor.ts'))).toBe(false);
    expect(existsSync(path.join(app.root, 'fluid/templates/auth/two-factor.html'))).toBe(false);
    expect(await readFile(path.join(app.root, 'fluid/auth/flows.ts'), 'utf8')).not.toContain('startChallenge');
  });

  it('names a wrong argument', async () => {
    const app = await project();
    made.push(app);
    const run = await fw(app.root, 'create', 'auth', 'extra');
    expect(run.error).toBe('fw create auth: unexpected argument extra; it takes only options.');
  });
});
