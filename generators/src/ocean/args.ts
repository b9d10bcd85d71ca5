import { OceanError } from './errors.js';
import { didYouMean } from './suggest.js';
import type { VersionPolicy } from './resolve.js';

/** Parsed `fw ocean install` arguments. */
export interface OceanInstallArgs {
  /** `id` or `id==version`, in the order given. */
  requests: string[];
  /** Bundle ids as given (leading zeros allowed). */
  bundles: string[];
  policy: VersionPolicy;
  help: boolean;
}

/** Usage text of `fw ocean install`. */
export const OCEAN_INSTALL_USAGE = `Usage: fw ocean install <id[==version]>... [-b|--bundle <id>]... [-p|--pre] [-ps|--prefer-stable]

Installs Additives from the Ocean registry as exact npm dependencies and registers them.

  <id>                   install the latest version the policy allows
  <id>==<version>        install exactly this version (beats a bundle's plain id)
  -b, --bundle <id>      install every Additive of a bundle; leading zeros optional (42 = 000042)
  -p, --pre              take the highest version, prereleases of any channel included
  -ps, --prefer-stable   take the latest stable; a prerelease only when there is no stable
  -h, --help             show this help`;

/**
 * Parses `fw ocean install` arguments (everything after `install`). Handles the reference's
 * two-letter short option `-ps` (which `node:util` parseArgs cannot express), `--prefer-stable`,
 * `-p`/`--pre`, and `-b N`/`--bundle N`/`--bundle=N`/`-bN`. `--` ends the options. Throws
 * {@link OceanError} for unknown options, a missing bundle value, `--pre` together with
 * `--prefer-stable`, or nothing to install.
 */
export function parseOceanInstallArgs(argv: readonly string[]): OceanInstallArgs {
  const requests: string[] = [];
  const bundles: string[] = [];
  let pre: string | undefined;
  let preferStable: string | undefined;
  let help = false;
  let optionsDone = false;

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (optionsDone || !arg.startsWith('-') || arg === '-') {
      requests.push(arg);
    } else if (arg === '--') {
      optionsDone = true;
    } else if (arg === '-p' || arg === '--pre') {
      pre = arg;
    } else if (arg === '-ps' || arg === '--prefer-stable') {
      preferStable = arg;
    } else if (arg === '-h' || arg === '--help') {
      help = true;
    } else if (arg === '-b' || arg === '--bundle') {
      const value = argv[i + 1];
      if (value === undefined || value === '' || value.startsWith('-')) {
        throw new OceanError(`option ${arg} needs a bundle id, such as ${arg} 42`);
      }
      bundles.push(value);
      i++;
    } else if (arg.startsWith('--bundle=')) {
      const value = arg.slice('--bundle='.length);
      if (value === '') throw new OceanError('option --bundle= needs a bundle id, such as --bundle=42');
      bundles.push(value);
    } else if (/^-b\d+$/.test(arg)) {
      bundles.push(arg.slice(2));
    } else {
      const hint = didYouMean(arg.split('=')[0] ?? arg, ['--pre', '--prefer-stable', '--bundle', '--help']);
      throw new OceanError(`unknown option "${arg}" for fw ocean install${hint}\n\n${OCEAN_INSTALL_USAGE}`);
    }
  }

  if (pre !== undefined && preferStable !== undefined) {
    throw new OceanError(`${pre} and ${preferStable} cannot be used together: choose one version policy`);
  }
  if (!help && requests.length === 0 && bundles.length === 0) {
    throw new OceanError(`nothing to install: name at least one Additive id or a bundle\n\n${OCEAN_INSTALL_USAGE}`);
  }
  const policy: VersionPolicy = pre !== undefined ? 'pre' : preferStable !== undefined ? 'prefer-stable' : 'stable';
  return { requests, bundles, policy, help };
}

/** Parsed `fw ocean search` arguments. */
export interface OceanSearchArgs {
  term?: string;
  help: boolean;
}

/** Usage text of `fw ocean search`. */
export const OCEAN_SEARCH_USAGE = `Usage: fw ocean search [term]

Lists the bundles and Additives of the Ocean registry (all of them, or those matching term).
The first column is the bundle id, zero-padded to six digits.`;

/** Parses `fw ocean search` arguments: at most one search term, and `-h`/`--help`. */
export function parseOceanSearchArgs(argv: readonly string[]): OceanSearchArgs {
  const terms: string[] = [];
  let help = false;
  for (const arg of argv) {
    if (arg === '-h' || arg === '--help') help = true;
    else if (arg.startsWith('-') && arg !== '-') throw new OceanError(`unknown option "${arg}" for fw ocean search\n\n${OCEAN_SEARCH_USAGE}`);
    else terms.push(arg);
  }
  if (terms.length > 1) {
    throw new OceanError(`fw ocean search takes at most one term, got ${terms.length}: ${terms.join(' ')}`);
  }
  return terms[0] === undefined ? { help } : { term: terms[0], help };
}
