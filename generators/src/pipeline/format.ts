import path from 'node:path';

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

type Prettier = typeof import('prettier');
let prettier: Promise<Prettier> | undefined;

/** Whether {@link formatFile} would run prettier on this file (`.hbs`, `.ini` and binaries never). */
export function isFormattable(filePath: string, content: Buffer): boolean {
  if (!FORMATTABLE.has(path.posix.extname(filePath).toLowerCase())) return false;
  return !isBinary(content);
}

/** A buffer with a NUL byte in its first 8000 bytes is treated as binary (git's heuristic). */
export function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}

type ResolveConfig = Prettier['resolveConfig'];
type Options = NonNullable<Awaited<ReturnType<ResolveConfig>>> | typeof DEFAULT_PRETTIER_OPTIONS;
const resolved = new Map<string, Promise<Options>>();

/**
 * The prettier options of a file, resolved once per folder and extension for the life of the
 * process (a regeneration formats hundreds of files in a few folders; resolving per file stats
 * the same config files over and over).
 */
function optionsFor(absolute: string, resolveConfig: ResolveConfig): Promise<Options> {
  const key = `${path.dirname(absolute)}\0${path.extname(absolute)}`;
  let options = resolved.get(key);
  if (!options) {
    options = resolveConfig(absolute, { editorconfig: true }).then((o) => o ?? DEFAULT_PRETTIER_OPTIONS);
    resolved.set(key, options);
  }
  return options;
}

/**
 * Formats a file with prettier, choosing the parser from the extension. Prettier is imported
 * lazily, on the first formattable file, so commands that write none never load it. `configDir`
 * is where a project's own prettier config (if any) is looked up.
 */
export async function formatFile(filePath: string, content: Buffer, configDir: string): Promise<Buffer> {
  if (!isFormattable(filePath, content)) return content;
  prettier ??= import('prettier');
  const { format, resolveConfig } = await prettier;
  const absolute = path.join(configDir, filePath);
  const options = await optionsFor(absolute, resolveConfig);
  try {
    const formatted = await format(content.toString('utf8'), { ...options, filepath: absolute });
    return Buffer.from(formatted, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`prettier could not format ${filePath}: ${reason}`);
  }
}
