/** Turning `@fw/schemas`' validation errors into the kernel's `ConfigError`. */
import { ConfigValidationError, type ConfigProblem } from '@fw/schemas';
import { ConfigError } from '../errors.js';

/** A `ConfigValidationError` of `@fw/schemas` as the kernel's `ConfigError`, its lines under `title`. */
export function fromValidation(err: unknown, title: string): Error {
  if (err instanceof ConfigValidationError) {
    return new ConfigError(
      `${title}:\n${err.message}`,
      err.problems.map((p: ConfigProblem) => ({ source: p.source, path: p.path, line: p.line })),
      { cause: err },
    );
  }
  return err instanceof Error ? err : new ConfigError(String(err));
}
