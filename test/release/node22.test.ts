/**
 * Release on the oldest supported Node (engines >=22.12): the main flow (main-flow.ts) with
 * npm, the app's tests, its build and `npm start` all running on Node 22, whose binary `.ci/setup`
 * installs and names in $HOME/.cache/fw-tools/node22.path (FW_NODE22 overrides).
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { mainFlow } from './main-flow.js';

function node22(): string {
  const fromEnv = process.env.FW_NODE22;
  const pathFile = path.join(process.env.FW_TOOLS_DIR ?? path.join(homedir(), '.cache/fw-tools'), 'node22.path');
  const bin = fromEnv ?? (existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '');
  if (!bin || !existsSync(bin)) throw new Error(`no Node 22 binary (${pathFile} or FW_NODE22): run "bash .ci/setup"`);
  return bin;
}

mainFlow('node22', node22());
