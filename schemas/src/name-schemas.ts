import * as z from 'zod';
import { additiveNameProblem, projectNameProblem, type NameProblem } from './names.js';

function nameSchema(check: (name: unknown) => NameProblem | undefined, pattern: RegExp, description: string) {
  return z
    .string()
    .superRefine((name, ctx) => {
      const problem = check(name);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `${problem.allowed} (it ${problem.wrong})` });
    })
    .meta({ description, pattern: pattern.source });
}

/** A project name (npm package name rules; no path separators, no `..`). */
export const projectNameSchema = nameSchema(
  projectNameProblem,
  /^[a-z0-9][a-z0-9._-]*$/,
  'Project name: an npm package name (lowercase, no "/" or "..", at most 214 characters).',
);

/** An Additive name: `^[a-z][a-z0-9_-]*$`, not a reserved path, not a JavaScript reserved word. */
export const additiveNameSchema = nameSchema(
  additiveNameProblem,
  /^[a-z][a-z0-9_-]*$/,
  'Additive name: lowercase ^[a-z][a-z0-9_-]*$, not fluid/api/ws/static/frontend/vite-dev/additives/node_modules or a JS reserved word.',
);
