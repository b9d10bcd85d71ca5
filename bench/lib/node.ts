/**
 * How a benchmark starts a TypeScript file in its own Node process: plain `node`, whose type
 * stripping runs the erasable TypeScript of bench/ (no tsx, no loader hooks in the measured
 * process). Node 22.12–22.17 needs the flag; later versions strip types by default.
 */
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const FLAGS = major === 22 && minor < 18 ? ['--experimental-strip-types', '--no-warnings=ExperimentalWarning'] : [];

/** `[node, ...flags, script, ...args]` for spawn. */
export function nodeScript(script: string, args: readonly string[] = []): [string, string[]] {
  return [process.execPath, [...FLAGS, script, ...args]];
}
