import type { CustomActionConfig, NodePlopAPI } from 'node-plop';
import type { FileTree } from '../engine/file-tree.js';
import { BLUEPRINT_ACTION } from './index.js';

/** Name of the node-plop generator that renders `blueprints/project`. */
export const PROJECT_GENERATOR = 'project';

/** A question the project generator can ask on a TTY, one per create-project flag. */
export type ProjectQuestion = 'surface' | 'alpine' | 'framework' | 'typescript';

/** The answers a prompt run returns (only the questions asked are present). */
export interface ProjectPromptAnswers {
  surface?: 'none' | 'htmx' | 'vite';
  alpine?: boolean;
  framework?: string;
  typescript?: boolean;
}

/** Data the project blueprint renders with. */
export interface ProjectBlueprintData {
  name: string;
  frontend: Record<string, unknown>;
  htmx: boolean;
  alpine: boolean;
  kernelSpec: string;
  cliSpec: string;
  version: string;
}

/**
 * Registers the `project` generator: its prompts ask (with inquirer, on a TTY only) exactly the
 * questions in `ask`, in order, skipping those an answer (or a `known` flag) makes moot; its one action
 * renders `blueprints/project` into `tree`.
 */
export function registerProjectGenerator(
  plop: NodePlopAPI,
  tree: FileTree,
  ask: readonly ProjectQuestion[],
  known: ProjectPromptAnswers,
  frameworks: readonly string[],
): void {
  const surface = (answers: ProjectPromptAnswers): string | undefined => answers.surface ?? known.surface;
  const blueprintAction: CustomActionConfig<typeof BLUEPRINT_ACTION> = { type: BLUEPRINT_ACTION, blueprint: 'project', tree };
  plop.setGenerator(PROJECT_GENERATOR, {
    description: 'a new fw project',
    prompts: async (inquirer) =>
      inquirer.prompt([
        {
          type: 'list',
          name: 'surface',
          message: 'Frontend surface of the main app',
          choices: [
            { name: 'htmx (server-rendered pages, htmx served by the kernel)', value: 'htmx' },
            { name: 'none (no frontend tags)', value: 'none' },
            { name: 'vite (bundled single-page frontend)', value: 'vite' },
          ],
          default: 'htmx',
          when: ask.includes('surface'),
        },
        {
          type: 'confirm',
          name: 'alpine',
          message: 'Add Alpine.js?',
          default: false,
          when: (answers: ProjectPromptAnswers) => ask.includes('alpine') && surface(answers) === 'htmx',
        },
        {
          type: 'list',
          name: 'framework',
          message: 'Vite framework',
          choices: [...frameworks],
          when: (answers: ProjectPromptAnswers) => ask.includes('framework') && surface(answers) === 'vite',
        },
        {
          type: 'confirm',
          name: 'typescript',
          message: 'Use TypeScript in the Vite workspace?',
          default: false,
          when: (answers: ProjectPromptAnswers) => ask.includes('typescript') && surface(answers) === 'vite',
        },
      ]),
    actions: [blueprintAction],
  });
}
