import semver from 'semver';
import { OceanError } from './errors.js';
import { formatBundleId, type OceanAdditive, type OceanIndex } from './schema.js';
import { didYouMean } from './suggest.js';

/**
 * Which versions an unpinned request may resolve to:
 * - `stable` (default): the latest stable version; prereleases are never chosen;
 * - `pre` (`--pre`): the highest version of all, prereleases of any channel included;
 * - `prefer-stable` (`--prefer-stable`): the latest stable, or the highest prerelease when the
 *   Additive has no stable version at all.
 */
export type VersionPolicy = 'stable' | 'pre' | 'prefer-stable';

/** Input of {@link resolveInstall}. */
export interface ResolveInstallInput {
  index: OceanIndex;
  /** Requested Additives: `"id"` or `"id==version"`. */
  requests: readonly string[];
  /** Bundle ids, leading zeros optional (`"000042"` is bundle 42). */
  bundles: readonly string[];
  policy: VersionPolicy;
}

/** One Additive to install, with the exact version and the npm install spec. */
export interface ResolvedAdditive {
  id: string;
  package: string;
  version: string;
  /** `<package>@<version>`, what `npm install --save-exact` receives. */
  spec: string;
}

interface Wanted {
  id: string;
  pin?: string;
  /** Where the request came from, for error messages: `argument "blog==1.0.0"` or `bundle 000042`. */
  origin: string;
}

/**
 * Resolves install requests and bundles against an index to exact versions. A bundle is the
 * same as naming each of its members; an Additive named more than once is installed once; an
 * explicit `id==version` pin beats a plain id (from a bundle or an argument), and two different
 * pins for one id are an error. A pin is taken as is, whatever the policy, but must be a version
 * the index lists. Pure: no I/O. Throws {@link OceanError} for unknown ids or bundles (with
 * close ids suggested), unlisted pins (with the available versions), and Additives with no
 * version the policy allows.
 */
export function resolveInstall(input: ResolveInstallInput): ResolvedAdditive[] {
  const byId = new Map(input.index.additives.map((a) => [a.id, a]));
  const wanted = new Map<string, Wanted>();
  const add = (next: Wanted): void => {
    const known = wanted.get(next.id);
    if (known === undefined || (known.pin === undefined && next.pin !== undefined)) {
      wanted.set(next.id, next);
      return;
    }
    if (next.pin !== undefined && known.pin !== next.pin) {
      throw new OceanError(
        `conflicting pins for "${next.id}": ${known.origin} asks for ${known.pin}, ${next.origin} asks for ${next.pin}`,
      );
    }
  };

  for (const request of input.requests) {
    const { id, pin } = parseRequest(request);
    if (!byId.has(id)) {
      throw new OceanError(`unknown Additive "${id}" in argument "${request}"${didYouMean(id, byId.keys())}`);
    }
    add(pin === undefined ? { id, origin: `argument "${request}"` } : { id, pin, origin: `argument "${request}"` });
  }
  for (const raw of input.bundles) {
    const bundleId = parseBundleId(raw);
    const bundle = input.index.bundles.find((b) => b.id === bundleId);
    if (bundle === undefined) {
      const nearest = [...input.index.bundles].sort((x, y) => Math.abs(x.id - bundleId) - Math.abs(y.id - bundleId));
      const known = nearest.slice(0, 10).map((b) => formatBundleId(b.id));
      const label = nearest.length > known.length ? 'nearest known bundles' : 'known bundles';
      throw new OceanError(
        `unknown bundle ${formatBundleId(bundleId)} (from "${raw}"); ` +
          (known.length === 0 ? 'the index lists no bundles' : `${label}: ${known.join(', ')}`),
      );
    }
    for (const member of bundle.members) add({ id: member, origin: `bundle ${formatBundleId(bundle.id)}` });
  }

  return [...wanted.values()].map((w) => {
    const additive = byId.get(w.id);
    if (additive === undefined) throw new OceanError(`unknown Additive "${w.id}" in ${w.origin}`);
    const version = w.pin === undefined ? pickVersion(additive, input.policy) : checkPin(additive, w.pin);
    return { id: additive.id, package: additive.package, version, spec: `${additive.package}@${version}` };
  });
}

/**
 * The version `policy` picks among `versions` (compared with semver), or `undefined` when none
 * qualifies. Exported for search, which shows what a plain install would get.
 */
export function pickFrom(versions: readonly string[], policy: VersionPolicy): string | undefined {
  const sorted = semver.rsort([...versions]);
  const stable = sorted.find((v) => semver.prerelease(v) === null);
  if (policy === 'stable') return stable;
  if (policy === 'pre') return sorted[0];
  return stable ?? sorted[0];
}

function pickVersion(additive: OceanAdditive, policy: VersionPolicy): string {
  const version = pickFrom(additive.versions, policy);
  if (version !== undefined) return version;
  throw new OceanError(
    `"${additive.id}" has no stable version (it has only ${semver.rsort([...additive.versions]).join(', ')}); ` +
      `use --pre or --prefer-stable, or pin one with ${additive.id}==<version>`,
  );
}

function checkPin(additive: OceanAdditive, pin: string): string {
  if (additive.versions.includes(pin)) return pin;
  throw new OceanError(
    `"${additive.id}" has no version ${pin}; available: ${semver.rsort([...additive.versions]).join(', ')}`,
  );
}

/** Splits `"id"` / `"id==version"`, rejecting empty parts and single `=` typos. */
export function parseRequest(request: string): { id: string; pin?: string } {
  const at = request.indexOf('==');
  const id = at === -1 ? request : request.slice(0, at);
  const pin = at === -1 ? undefined : request.slice(at + 2);
  if (id === '' || /[=\s]/.test(id)) {
    throw new OceanError(`invalid Additive request "${request}": expected <id> or <id>==<version>`);
  }
  if (pin === undefined) return { id };
  if (semver.valid(pin) !== pin) {
    throw new OceanError(`invalid version in "${request}": "${pin}" is not a semver version such as 1.2.0 or 1.2.0-rc.1`);
  }
  return { id, pin };
}

/** Parses a bundle id given on the command line; leading zeros are optional (`000042` → 42). */
export function parseBundleId(raw: string): number {
  if (!/^\d{1,6}$/.test(raw)) {
    throw new OceanError(`invalid bundle id "${raw}": expected up to six digits, such as 42 or 000042`);
  }
  return Number(raw);
}
