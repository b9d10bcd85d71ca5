import { CliError } from '../cli/errors.js';

/**
 * An action or a generator of `fw make` refused its input (a clash, a missing file, a bad
 * answer): printed as `error: <message>`, nothing written.
 */
export class MakeError extends CliError {
  constructor(message: string) {
    super(message);
    this.name = 'MakeError';
  }
}
