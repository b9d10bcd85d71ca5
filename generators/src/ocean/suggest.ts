/** Edit distance between two strings (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
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

/**
 * The candidates close to `wanted` (edit distance at most a third of its length, at least 2, or
 * sharing it as a substring), closest first, at most three — for "did you mean" hints.
 */
export function closest(wanted: string, candidates: Iterable<string>): string[] {
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  return [...candidates]
    .map((candidate) => ({ candidate, d: distance(wanted, candidate) }))
    .filter(({ candidate, d }) => d <= limit || candidate.includes(wanted) || wanted.includes(candidate))
    .sort((x, y) => x.d - y.d || x.candidate.localeCompare(y.candidate))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

/** " (did you mean a, b?)" when there are close candidates, else "". */
export function didYouMean(wanted: string, candidates: Iterable<string>): string {
  const near = closest(wanted, candidates);
  return near.length === 0 ? '' : ` (did you mean ${near.join(', ')}?)`;
}
