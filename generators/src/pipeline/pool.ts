/**
 * Runs `task` over `items` with at most `limit` calls in flight, starting them in order, and
 * returns the results in input order. On the first failure no new task starts; the promise
 * rejects with that failure once every started task has settled (so nothing is left running).
 * The pipeline's one concurrency helper: store writes, file writes and reads all use it.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await task(items[index] as T);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
  return results;
}
