/**
 * `Sources`: the snippets (scripts, links) other parts of the app register for every Vite index
 * `<head>`, e.g. a socket client. `rendered` is `Markup` (empty until frozen at startup).
 */
import { FrontendException } from './errors.js';
import { escape, Markup } from '../core/markup.js';

/** The registered head snippets of an app. */
export class Sources {
  readonly #items: Markup[] = [];
  #rendered = new Markup('');
  #frozen = false;

  /** Registers a snippet; a plain string is escaped (wrap trusted HTML in `Markup`). */
  add(snippet: Markup | string): this {
    if (this.#frozen) throw new FrontendException('Sources: the app has started; register sources before (at import or in a startup hook)');
    this.#items.push(escape(snippet));
    return this;
  }

  /** Renders the sources once; later `add()` calls throw. */
  freeze(): void {
    if (this.#frozen) return;
    this.#frozen = true;
    this.#rendered = new Markup(this.#items.map(String).join('\n'));
  }

  /** Every source as one piece of `Markup` (`Markup('')` before the freeze). */
  get rendered(): Markup {
    return this.#rendered;
  }
}
