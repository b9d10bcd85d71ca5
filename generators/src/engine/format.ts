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
  const options = (await resolveConfig(absolute, { editorconfig: true })) ?? DEFAULT_PRETTIER_OPTIONS;
  try {
    const formatted = await format(content.toString('utf8'), { ...options, filepath: absolute });
    return Buffer.from(formatted, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`prettier could not format ${filePath}: ${reason}`);
  }
}
