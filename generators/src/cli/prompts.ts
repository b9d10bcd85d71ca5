import type { CommandIO } from './io.js';
import { CliError } from './errors.js';

/** A question `create project` can ask on a terminal, one per flag. */
export type ProjectQuestion = 'surface' | 'alpine' | 'framework' | 'typescript' | 'auth';

/** The answers of a prompt run (only the questions asked are present). */
export interface ProjectPromptAnswers {
  surface?: 'none' | 'htmx' | 'vite';
  alpine?: boolean;
  framework?: string;
  typescript?: boolean;
  /** Add the auth scaffold (`fw create auth`, run by the app's own `@fw/cli` after the install). */
  auth?: boolean;
}

/** What a command says when the user cancels a prompt. */
const CANCELLED = 'cancelled: nothing was written.';

/** @clack/prompts and the streams a command asks on (see {@link promptSession}). */
export interface PromptSession {
  clack: typeof import('@clack/prompts');
  streams: { input: CommandIO['stdin']; output: CommandIO['stdout'] & { columns?: number } };
  /** The answer of a prompt; Ctrl-C (clack's cancel symbol) is a {@link CliError}: nothing was written. */
  answer<T>(value: T | symbol): T;
}

/**
 * The one way fw asks questions: @clack/prompts (imported here, on a terminal only) on the
 * command's streams. Callers check `isInteractive(io)` first: fw never prompts without a terminal.
 */
export async function promptSession(io: CommandIO): Promise<PromptSession> {
  const clack = await import('@clack/prompts');
  // A terminal without a window size (a pty opened by a script) reports 0 columns, and clack
  // would wrap every character onto its own line: give it the usual 80.
  const output = io.stdout as typeof io.stdout & { columns?: number };
  if (!(typeof output.columns === 'number' && output.columns > 0)) output.columns = 80;
  const answer = <T>(value: T | symbol): T => {
    if (clack.isCancel(value)) throw new CliError(CANCELLED);
    return value as T;
  };
  return { clack, streams: { input: io.stdin, output }, answer };
}

/**
 * Asks, with @clack/prompts (imported here, on a terminal only), exactly the questions in `ask`,
 * in order, skipping those an earlier answer (or a `known` flag) makes moot: Alpine only for htmx,
 * the framework and TypeScript only for vite. Ctrl-C cancels with a {@link CliError}.
 * Auth comes last: its answer decides whether the install runs, which the other answers never do.
 */
export async function askProjectQuestions(
  io: CommandIO,
  ask: readonly ProjectQuestion[],
  known: ProjectPromptAnswers,
  frameworks: readonly string[],
): Promise<ProjectPromptAnswers> {
  const { clack, streams } = await promptSession(io);
  const cancelled = (): never => {
    throw new CliError(CANCELLED);
  };
  const answers: ProjectPromptAnswers = {};
  const chosen = (): string | undefined => answers.surface ?? known.surface;
  if (ask.includes('surface')) {
    const surface = await clack.select<'none' | 'htmx' | 'vite'>({
      ...streams,
      message: 'Frontend surface of the main app',
      options: [
        {
          value: 'htmx',
          label: 'htmx',
          hint: 'server-rendered pages, htmx served by the kernel',
        },
        { value: 'none', label: 'none', hint: 'no frontend tags' },
        {
          value: 'vite',
          label: 'vite',
          hint: 'a bundled frontend: React, Vue, Svelte, ...',
        },
      ],
      initialValue: 'htmx',
    });
    answers.surface = clack.isCancel(surface) ? cancelled() : surface;
  }
  if (ask.includes('alpine') && chosen() === 'htmx') {
    const alpine = await clack.confirm({
      ...streams,
      message: 'Add Alpine.js?',
      initialValue: false,
    });
    answers.alpine = clack.isCancel(alpine) ? cancelled() : alpine;
  }
  if (ask.includes('framework') && chosen() === 'vite') {
    const framework = await clack.select<string>({
      ...streams,
      message: 'Vite framework',
      options: frameworks.map((f) => ({ value: f, label: f })),
      initialValue: 'none',
    });
    answers.framework = clack.isCancel(framework) ? cancelled() : framework;
  }
  if (ask.includes('typescript') && chosen() === 'vite') {
    const typescript = await clack.confirm({
      ...streams,
      message: 'Use TypeScript in the Vite workspace?',
      initialValue: false,
    });
    answers.typescript = clack.isCancel(typescript) ? cancelled() : typescript;
  }
  if (ask.includes('auth')) {
    const auth = await clack.confirm({
      ...streams,
      message: 'Add sign-up and sign-in (fw create auth; installs the dependencies)?',
      initialValue: false,
    });
    answers.auth = clack.isCancel(auth) ? cancelled() : auth;
  }
  return answers;
}
