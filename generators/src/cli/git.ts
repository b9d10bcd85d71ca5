import { spawnSync } from 'node:child_process';

function git(args: string[], cwd: string): { ok: boolean; output: string } {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stderr ?? ''}${result.stdout ?? ''}`.trim() || (result.error?.message ?? '') };
}

/** Whether `git` can run here and `dir` is not inside a work tree already (then `git init` makes sense). */
export function canGitInit(dir: string): { ok: true } | { ok: false; reason: string } {
  if (!git(['--version'], dir).ok) return { ok: false, reason: 'git is not installed' };
  if (git(['rev-parse', '--is-inside-work-tree'], dir).ok) return { ok: false, reason: `${dir} is already inside a git repository` };
  return { ok: true };
}

/**
 * `git init`, then a first commit of everything (the .gitignore keeps out what must stay out:
 * app_configs/*.ini, node_modules). When the commit cannot be made (no user.name/user.email),
 * the repository stays initialised without it. Returns the line to print.
 */
export function gitInit(dir: string, message: string): string {
  const can = canGitInit(dir);
  if (!can.ok) return `Skipped git init: ${can.reason}.\n`;
  const init = git(['init', '-q'], dir);
  if (!init.ok) return `Skipped git init: ${init.output.split('\n')[0]}\n`;
  const add = git(['add', '-A'], dir);
  const commit = add.ok ? git(['commit', '-q', '-m', message], dir) : add;
  if (!commit.ok) return `Initialized a git repository (no first commit: ${commit.output.split('\n')[0]}).\n`;
  return 'Initialized a git repository with a first commit.\n';
}
