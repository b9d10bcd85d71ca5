/** Medians and ranges of repeated measurements. */

/** The median (the mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Median and range of a set of measurements. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** The median and the min–max range. */
export function spread(values: readonly number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** Per-round ratios a[i] / b[i] of two paired series. */
export function pairedRatios(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) throw new Error(`paired series differ in length (${a.length} and ${b.length})`);
  return a.map((x, i) => x / b[i]!);
}
