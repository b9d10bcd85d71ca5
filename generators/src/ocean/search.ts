import { loadIndex, type LoadIndexOptions } from './registry.js';
import { pickFrom } from './resolve.js';
import { formatBundleId, type OceanIndex } from './schema.js';

/** A bundle row of a search result. */
export interface BundleRow {
  kind: 'bundle';
  bundleId: number;
  name: string;
  members: string[];
  description: string;
}

/** An Additive row of a search result, with the bundles that contain it. */
export interface AdditiveRow {
  kind: 'additive';
  /** Ids of the bundles this Additive belongs to, ascending (empty when in none). */
  bundleIds: number[];
  id: string;
  package: string;
  /** What a plain `fw ocean install <id>` would take (latest stable), else the highest prerelease. */
  latest: string;
  /** True when {@link latest} is a prerelease (the Additive has no stable version). */
  prerelease: boolean;
  description: string;
}

/** Everything `fw ocean search` lists: bundles first (by id), then Additives (by id). */
export interface SearchResult {
  bundles: BundleRow[];
  additives: AdditiveRow[];
}

/**
 * Searches an index. Without a term, lists everything. A term matches case-insensitively as a
 * substring of an Additive's id, package, description or tags; a bundle matches on its name,
 * description or id (`42` or `000042`), or when one of its members matches. Pure.
 */
export function searchIndex(index: OceanIndex, term?: string): SearchResult {
  const needle = term?.trim().toLowerCase() ?? '';
  const hit = (...fields: Array<string | undefined>): boolean =>
    needle === '' || fields.some((f) => f !== undefined && f.toLowerCase().includes(needle));

  const matching = new Set(
    index.additives.filter((a) => hit(a.id, a.package, a.description, ...(a.tags ?? []))).map((a) => a.id),
  );
  const bundles = index.bundles
    .filter((b) => hit(b.name, b.description, formatBundleId(b.id), String(b.id)) || b.members.some((m) => matching.has(m)))
    .sort((x, y) => x.id - y.id)
    .map<BundleRow>((b) => ({ kind: 'bundle', bundleId: b.id, name: b.name, members: [...b.members], description: b.description ?? '' }));
  const bundlesOf = new Map<string, number[]>();
  for (const b of index.bundles) for (const m of b.members) bundlesOf.set(m, [...(bundlesOf.get(m) ?? []), b.id]);
  const additives = index.additives
    .filter((a) => matching.has(a.id))
    .sort((x, y) => x.id.localeCompare(y.id))
    .map<AdditiveRow>((a) => {
      const stable = pickFrom(a.versions, 'stable');
      const latest = stable ?? pickFrom(a.versions, 'pre') ?? '';
      return {
        kind: 'additive',
        bundleIds: [...(bundlesOf.get(a.id) ?? [])].sort((x, y) => x - y),
        id: a.id,
        package: a.package,
        latest,
        prerelease: stable === undefined,
        description: a.description,
      };
    });
  return { bundles, additives };
}

/** Loads the index (see {@link loadIndex}) and searches it with {@link searchIndex}. */
export async function search(term?: string, options: LoadIndexOptions = {}): Promise<SearchResult> {
  return searchIndex(await loadIndex(options), term);
}

/**
 * Formats a search result as plain-text tables. Every table's FIRST column is the bundle id
 * zero-padded to six digits: the bundles table has one row per bundle; the Additives table
 * lists, for each Additive, the bundles that contain it (comma-separated, `-` when none).
 */
export function formatSearchTable(result: SearchResult): string {
  if (result.bundles.length === 0 && result.additives.length === 0) return 'No bundles or Additives match.\n';
  const parts: string[] = [];
  if (result.bundles.length > 0) {
    parts.push(
      'Bundles\n' +
        table(
          ['BUNDLE', 'NAME', 'MEMBERS', 'DESCRIPTION'],
          result.bundles.map((b) => [formatBundleId(b.bundleId), b.name, b.members.join(', '), b.description]),
        ),
    );
  }
  if (result.additives.length > 0) {
    parts.push(
      'Additives\n' +
        table(
          ['BUNDLE', 'ID', 'PACKAGE', 'LATEST', 'DESCRIPTION'],
          result.additives.map((a) => [
            a.bundleIds.length === 0 ? '-' : a.bundleIds.map(formatBundleId).join(','),
            a.id,
            a.package,
            a.prerelease ? `${a.latest} (pre)` : a.latest,
            a.description,
          ]),
        ),
    );
  }
  return parts.join('\n');
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd() + '\n';
  return line(header) + rows.map(line).join('');
}
