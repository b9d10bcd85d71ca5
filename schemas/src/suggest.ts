/**
 * "Did you mean ...?" for every name a user can mistype: commands, flags, config keys, Additive
 * ids. One small helper for the whole of fw, free of zod, so the CLI's fast paths can use it
 * (`@fw/schemas/suggest`).
 */

/** Levenshtein distance between two strings (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The largest distance {@link closest} counts as a likely typo of `wanted`: a third of its length, at least 2. */
function limitFor(wanted: string): number {
  return Math.max(2, Math.floor(wanted.length / 3));
}

/**
 * The candidates close to `wanted` (edit distance at most a third of its length, at least 2, or
 * sharing it as a substring), closest first, at most three — for "did you mean" hints.
 */
export function closest(wanted: string, candidates: Iterable<string>): string[] {
  const limit = limitFor(wanted);
  return [...candidates]
    .map((candidate) => ({ candidate, d: editDistance(wanted, candidate) }))
    .filter(({ candidate, d }) => d <= limit || candidate.includes(wanted) || wanted.includes(candidate))
    .sort((x, y) => x.d - y.d || x.candidate.localeCompare(y.candidate))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

/**
 * The candidate `wanted` is most likely a typo of, by edit distance alone (at most a quarter of
 * its length, at least 1; ties: the first in order), or `undefined`. Stricter than
 * {@link closest}: it decides whether a name is a mistake at all (`CACHE_TIPE` is `CACHE_TYPE`),
 * not only what to suggest once it is one.
 */
export function typoOf(wanted: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(wanted.length / 4));
  let best: { candidate: string; d: number } | undefined;
  for (const candidate of candidates) {
    if (candidate === wanted) return undefined;
    const d = editDistance(wanted, candidate);
    if (d <= limit && (best === undefined || d < best.d)) best = { candidate, d };
  }
  return best?.candidate;
}

/** `" (did you mean a, b?)"` when there are close candidates, else `""`. */
export function didYouMean(wanted: string, candidates: Iterable<string>): string {
  const near = closest(wanted, candidates);
  return near.length === 0 ? '' : ` (did you mean ${near.join(', ')}?)`;
}

/**
 * The did-you-mean for a value outside a fixed set of choices: the choice it equals but for case
 * (`"React"` → react), else the close ones; `""` when none is close.
 */
export function choiceHint(given: string, choices: readonly string[]): string {
  const lower = given.toLowerCase();
  return lower !== given && choices.includes(lower) ? ` (did you mean ${lower}?)` : didYouMean(lower, choices);
}
