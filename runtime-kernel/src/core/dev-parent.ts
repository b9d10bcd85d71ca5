/**
 * The mark `fw run` leaves on `globalThis` in the app `fw dev` runs, and in no other process: the
 * process id of that `fw dev` (which `fw run` read from `FW_DEV_PARENT` and took out of the
 * environment, so nothing the app starts inherits it). A registered symbol, so the CLI sets it
 * without importing the kernel.
 */
export const DEV_PARENT_MARK = Symbol.for('fw.devParent');

/** The process id of the `fw dev` that runs this app ({@link DEV_PARENT_MARK}); undefined in any other process. */
export function devParentPid(): number | undefined {
  const mark = (globalThis as { [DEV_PARENT_MARK]?: unknown })[DEV_PARENT_MARK];
  return typeof mark === 'number' ? mark : undefined;
}
