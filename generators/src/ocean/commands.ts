import { OCEAN_INSTALL_USAGE, OCEAN_SEARCH_USAGE, parseOceanInstallArgs, parseOceanSearchArgs } from './args.js';
import { installAdditives, type InstalledAdditive } from './install.js';
import { loadIndex } from './registry.js';
import { resolveInstall } from './resolve.js';
import { formatSearchTable, searchIndex, type SearchResult } from './search.js';

/** What the `fw ocean` commands need from the CLI. */
export interface OceanCommandContext {
  /** Project root (where fw.json and package.json are). */
  projectRoot: string;
  /** Environment (`FW_OCEAN_URL`, npm settings); default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Where output goes; default `process.stdout`. */
  print?: (text: string) => void;
  /** Registry request timeout in milliseconds. */
  timeoutMs?: number;
}

/** Extra context of `fw ocean install`. */
export interface OceanInstallContext extends OceanCommandContext {
  /** Registers installed Additives through the regeneration engine (see {@link installAdditives}). */
  register?: (installed: InstalledAdditive[]) => Promise<void>;
  /** npm executable (default `npm`). */
  npm?: string;
  /** npm registry override (default: npm's own configuration, e.g. `npm_config_registry`). */
  registry?: string;
  /** More project-relative files `register` writes, restored on rollback (see {@link installAdditives}). */
  protect?: readonly string[];
}

/**
 * `fw ocean search [term]`: loads the index, prints the tables, returns the rows (`undefined`
 * for `--help`). Throws `OceanError` on bad arguments or an unusable registry.
 */
export async function oceanSearch(argv: readonly string[], ctx: OceanCommandContext): Promise<SearchResult | undefined> {
  const print = ctx.print ?? ((text: string) => process.stdout.write(text));
  const args = parseOceanSearchArgs(argv);
  if (args.help) {
    print(`${OCEAN_SEARCH_USAGE}\n`);
    return undefined;
  }
  const index = await loadIndex(indexOptions(ctx));
  const result = searchIndex(index, args.term);
  print(formatSearchTable(result));
  return result;
}

/**
 * `fw ocean install <id[==version]>... [-b|--bundle <id>]... [-p|--pre] [-ps|--prefer-stable]`:
 * parses, loads the index, resolves, installs with npm and registers, printing what was
 * installed. Throws `OceanError` on any failure, with the project left untouched.
 */
export async function oceanInstall(argv: readonly string[], ctx: OceanInstallContext): Promise<InstalledAdditive[]> {
  const print = ctx.print ?? ((text: string) => process.stdout.write(text));
  const args = parseOceanInstallArgs(argv);
  if (args.help) {
    print(`${OCEAN_INSTALL_USAGE}\n`);
    return [];
  }
  const index = await loadIndex(indexOptions(ctx));
  const resolved = resolveInstall({ index, requests: args.requests, bundles: args.bundles, policy: args.policy });
  const installed = await installAdditives({
    projectRoot: ctx.projectRoot,
    resolved,
    ...(ctx.npm === undefined ? {} : { npm: ctx.npm }),
    ...(ctx.registry === undefined ? {} : { registry: ctx.registry }),
    ...(ctx.env === undefined ? {} : { env: ctx.env }),
    ...(ctx.register === undefined ? {} : { register: ctx.register }),
    ...(ctx.protect === undefined ? {} : { protect: ctx.protect }),
  });
  print(installed.map((i) => `installed ${i.id} (${i.spec})\n`).join(''));
  return installed;
}

function indexOptions(ctx: OceanCommandContext): { projectRoot: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } {
  return {
    projectRoot: ctx.projectRoot,
    ...(ctx.env === undefined ? {} : { env: ctx.env }),
    ...(ctx.timeoutMs === undefined ? {} : { timeoutMs: ctx.timeoutMs }),
  };
}
