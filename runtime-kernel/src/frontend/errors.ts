/** The errors of the frontend layer (the reference's `FrontendException`, `NodeError`, `TailwindError`). */
import { FrameworkException } from '../core/errors.js';

/** A frontend surface was misconfigured or misused (e.g. covered twice), or its build failed. */
export class FrontendException extends FrameworkException {
  /** Always `'FrontendException'`. */
  override name = 'FrontendException';
}

/** A Node/npm command exited non-zero (or could not start). */
export class NodeError extends FrameworkException {
  /** Always `'NodeError'`. */
  override name = 'NodeError';
  /** The command that failed, as argv. */
  readonly command: readonly string[];
  /** Its exit code (`null` when it was killed or did not start). */
  readonly exitCode: number | null;
  /** What it printed (stdout and stderr, interleaved as captured). */
  readonly output: string;

  constructor(message: string, details: { command: readonly string[]; exitCode: number | null; output: string; cause?: unknown }) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.command = details.command;
    this.exitCode = details.exitCode;
    this.output = details.output;
  }
}

/** A Tailwind compile or the `fw tailwind` passthrough failed. */
export class TailwindError extends FrameworkException {
  /** Always `'TailwindError'`. */
  override name = 'TailwindError';
}
