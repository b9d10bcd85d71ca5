import path from 'node:path';
import { DEFAULT_PRETTIER_OPTIONS, formatConfig, isFormattable, type Formatter, type SourceFile } from './format.js';

type Prettier = typeof import('prettier');
type Options = NonNullable<Awaited<ReturnType<Prettier['resolveConfig']>>>;
let prettier: Promise<Prettier> | undefined;

/** Imports prettier on first use only: commands that format nothing (or hit the cache) never load it. */
function loadPrettier(): Promise<Prettier> {
  prettier ??= import('prettier');
  return prettier;
}

/**
 * The prettier formatter of the `fw` commands. Prettier is imported on the first file that needs
 * formatting. The config file is the one {@link formatConfig} found (given as `configFile`, so
 * prettier never searches for it again); its options, with any `overrides` and `.editorconfig`
 * applied, are resolved once per folder and extension (prettier's own config cache is bypassed,
 * so a process that runs fw twice sees a config edited in between). Without a config the options are
 * {@link DEFAULT_PRETTIER_OPTIONS}, the ones the project blueprint writes to `.prettierrc.json`.
 * A formatting failure names the file.
 */
export function prettierFormatter(projectRoot: string, configFile: string | undefined): Formatter {
  const root = path.resolve(projectRoot);
  const resolved = new Map<string, Promise<Options>>();
  const optionsFor = (absolute: string, lib: Prettier): Promise<Options> => {
    const key = `${path.dirname(absolute)}\0${path.extname(absolute)}`;
    let options = resolved.get(key);
    if (!options) {
      options = lib
        .resolveConfig(absolute, { editorconfig: true, useCache: false, ...(configFile ? { config: configFile } : {}) })
        .then((found) => found ?? { ...DEFAULT_PRETTIER_OPTIONS });
      resolved.set(key, options);
    }
    return options;
  };
  const formatOne = async (file: SourceFile, lib: Prettier): Promise<Buffer> => {
    const absolute = path.join(root, file.path);
    const options = await optionsFor(absolute, lib);
    try {
      return Buffer.from(await lib.format(file.content.toString('utf8'), { ...options, filepath: absolute }), 'utf8');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`prettier could not format ${file.path}: ${reason}`);
    }
  };
  return {
    exact: true,
    async format(files) {
      if (!files.some((f) => isFormattable(f.path, f.content))) return files.map((f) => f.content);
      const lib = await loadPrettier();
      return Promise.all(files.map((f) => (isFormattable(f.path, f.content) ? formatOne(f, lib) : f.content)));
    },
  };
}

/**
 * Formats one file as the pipeline would in a project at `projectRoot` without a prettier config
 * of its own ({@link DEFAULT_PRETTIER_OPTIONS}, or the config found from there upward). For tests
 * and tools that check a render is prettier-stable.
 */
export async function formatFile(filePath: string, content: Buffer, projectRoot: string): Promise<Buffer> {
  const [formatted] = await prettierFormatter(projectRoot, formatConfig(projectRoot, '').file).format([{ path: filePath, content }]);
  return formatted ?? content;
}

