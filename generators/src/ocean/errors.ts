/**
 * The one error type of the Ocean client: every failure (registry unreachable or malformed,
 * unknown id or bundle, no version for the policy, bad arguments, failed install) throws it with
 * a message that names what was wrong — the URL, key path, id or argument.
 */
export class OceanError extends Error {
  override readonly name = 'OceanError';
}
