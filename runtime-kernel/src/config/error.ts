/** `ConfigError`: bad or missing configuration, naming the key path and the file. */
import { FrameworkException } from '../errors/index.js';

/** One problem found while loading the config. */
export interface ConfigErrorProblem {
  /** Where the value came from: `fw.json`, `app_configs/<app>.ini`, `environment`, `overrides`. */
  readonly source: string | undefined;
  /** The key path, e.g. `APP_FRONTEND.type`. */
  readonly path: string;
  /** The full line, e.g. `fw.json: APP_FRONTEND.type: got "x"; expected one of none, htmx, vite`. */
  readonly line: string;
}

/** Thrown when the config of an app cannot be loaded; the message lists every problem. */
export class ConfigError extends FrameworkException {
  override name = 'ConfigError';
  /** Every problem, in order. */
  readonly problems: readonly ConfigErrorProblem[];
  constructor(message: string, problems: readonly ConfigErrorProblem[] = [], options?: { cause?: unknown }) {
    super(message, options);
    this.problems = problems;
  }
}
