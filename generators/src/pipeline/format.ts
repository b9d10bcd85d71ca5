import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sha256 } from './hash.js';

/**
 * The formatter the pipeline runs over every render before planning, given to it as a
 * dependency: `fw` commands pass prettier (`prettierFormatter`, in `prettier.ts`, loaded only
 * there), `create-fw-app` passes {@link verbatim}, so the create path never loads prettier.
 */
export interface Formatter {
  /** Formats each file; returns the bytes in input order. Files it does not format come back as they are. */
  format(files: readonly SourceFile[]): Promise<Buffer[]>;
  /**
   * True when the output is what prettier writes under the project's config. {@link verbatim} is
   * exact only under fw's default config, for which every blueprint is written prettier-stable
   * (test/generators/prettier-stable.test.ts), so its output may be cached as prettier's then only.
   */
  readonly exact: boolean;
}

/** One file to format: its project-relative path (prettier picks the parser from it) and its bytes. */
export interface SourceFile {
  path: string;
  content: Buffer;
}

/** Extensions prettier formats (it picks the parser from the file name). */
const FORMATTABLE = new Set([
  '.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs',
  '.json', '.css', '.scss', '.less', '.html', '.vue', '.md', '.yaml', '.yml',
]);

/**
 * Prettier options used when the project has no prettier config of its own. The project
 * blueprint writes the same options to `.prettierrc.json`, so formatting stays stable.
 */
export const DEFAULT_PRETTIER_OPTIONS = { singleQuote: true, printWidth: 100 } as const;

/** Whether a formatter formats this file at all (`.hbs`, `.ini`, unknown extensions and binaries never). */
export function isFormattable(filePath: string, content: Buffer): boolean {
  if (!FORMATTABLE.has(path.posix.extname(filePath).toLowerCase())) return false;
  return !isBinary(content);
}

/** A buffer with a NUL byte in its first 8000 bytes is treated as binary (git's heuristic). */
function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}

/** The formatter of the create path: every file as rendered (the blueprints are prettier-stable). */
export const verbatim: Formatter = {
  format: async (files) => files.map((file) => file.content),
  exact: false,
};

/** Prettier's config files, in the order prettier looks for them in each folder. */
const CONFIG_FILES = [
  'package.json', 'package.yaml', '.prettierrc', '.prettierrc.json', '.prettierrc.yml', '.prettierrc.yaml',
  '.prettierrc.json5', '.prettierrc.js', 'prettier.config.js', '.prettierrc.ts', 'prettier.config.ts',
  '.prettierrc.mjs', 'prettier.config.mjs', '.prettierrc.mts', 'prettier.config.mts', '.prettierrc.cjs',
  'prettier.config.cjs', '.prettierrc.cts', 'prettier.config.cts', '.prettierrc.toml',
];

/** JSON with sorted keys, so `{"a":1,"b":2}` and `{"b":2,"a":1}` name the same options. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The identity of the prettier config one folder holds, or `undefined` when it holds none. */
function configIn(dir: string): { file: string; identity: string } | undefined {
  for (const name of CONFIG_FILES) {
    const file = path.join(dir, name);
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    if (name === 'package.json' || name === 'package.yaml') {
      if (name === 'package.yaml') {
        if (/^prettier\s*:/m.test(text)) return { file, identity: `${name}:${sha256(Buffer.from(text))}` };
        continue;
      }
      let field: unknown;
      try {
        field = (JSON.parse(text) as { prettier?: unknown }).prettier;
      } catch {
        continue; // prettier itself skips a package.json it cannot read
      }
      if (field === undefined) continue;
      return { file, identity: `package.json:${canonical(field)}` };
    }
    if (name === '.prettierrc' || name === '.prettierrc.json') {
      try {
        return { file, identity: `options:${canonical(JSON.parse(text))}` };
      } catch {
        // YAML in .prettierrc: identified by its bytes below
      }
    }
    return { file, identity: `${name}:${sha256(Buffer.from(text))}` };
  }
  return undefined;
}

/** What a run's formatting depends on besides the render itself (see {@link formatConfig}). */
export interface FormatConfig {
  /** The prettier config file prettier will use, if the project (or a folder above it) has one. */
  file: string | undefined;
  /** Hash of the fw version, the prettier config and any `.editorconfig`: the format cache's key. */
  key: string;
  /** True when the config is fw's default (no config, or one with exactly {@link DEFAULT_PRETTIER_OPTIONS}) and no `.editorconfig` applies. */
  isDefault: boolean;
}

const DEFAULT_IDENTITY = `options:${canonical(DEFAULT_PRETTIER_OPTIONS)}`;

/**
 * The prettier config of a project, found once per run without loading prettier: the first
 * config file from the root upward (prettier's own search order), plus every `.editorconfig` up
 * to one that says `root = true`. Config files in subfolders are not consulted: fw formats every
 * generated file with the project's root config (docs/generators.md).
 */
export function formatConfig(projectRoot: string, version: string): FormatConfig {
  let found: { file: string; identity: string } | undefined;
  const editorconfigs: string[] = [];
  let editorRoot = false;
  for (let dir = path.resolve(projectRoot); ; dir = path.dirname(dir)) {
    found ??= configIn(dir);
    if (!editorRoot) {
      const file = path.join(dir, '.editorconfig');
      if (existsSync(file)) {
        const text = readFileSync(file, 'utf8');
        editorconfigs.push(`${file}:${sha256(Buffer.from(text))}`);
        editorRoot = /^\s*root\s*=\s*true\s*$/im.test(text);
      }
    }
    if (path.dirname(dir) === dir || (found && editorRoot)) break;
  }
  const identity = found?.identity ?? DEFAULT_IDENTITY;
  const isDefault = identity === DEFAULT_IDENTITY && editorconfigs.length === 0;
  return { file: found?.file, key: sha256(Buffer.from([version, identity, ...editorconfigs].join('\0'))), isDefault };
}
