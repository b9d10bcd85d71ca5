/**
 * Interleaved rounds: every side runs once per round, and the order flips every round
 * (A B C, C B A, A B C …), so a slow spell on the shared machine hits all sides alike and no side
 * always runs first or last. Each round's results are paired for the ratios.
 */

/** Runs `measure` for every side in every round; answers each side's results in round order. */
export async function interleave<K extends string, T>(
  sides: readonly K[],
  rounds: number,
  measure: (side: K, round: number) => T | Promise<T>,
): Promise<Record<K, T[]>> {
  const out = Object.fromEntries(sides.map((s) => [s, [] as T[]])) as Record<K, T[]>;
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) out[side].push(await measure(side, round));
  }
  return out;
}
