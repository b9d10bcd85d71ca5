/**
 * A `fw migrate` fault: a bad bind, a refused destructive action, or a failed Prisma command.
 * The message names the bind (never its URL, which may hold a password).
 */
export class MigrateError extends Error {
  override name = 'MigrateError';
  /** The bind concerned, when there is one. */
  readonly bind: string | undefined;
  constructor(message: string, options: { bind?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.bind = options.bind;
  }
}
