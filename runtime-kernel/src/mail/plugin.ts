/**
 * The mail plugin: `fluid.mail`, the app's `Mailer`, made on first use from the `MAIL_*` keys
 * (SMTP, or the `var/outbox` folder when `MAIL_SERVER` is unset). Templated mail renders through
 * the app's templates. nodemailer loads only when the mailer is first used; `close()` waits up
 * to 10 s for background sends still in flight.
 */
import type { Plugin } from '../core/plugin.js';
import { Mailer } from './mailer.js';

declare module '../core/fluid.js' {
  interface FluidCore {
    /** The app's mailer, made on first use from the `MAIL_*` keys (`@fw/kernel/docs/mail.md`). */
    readonly mail: Mailer;
  }
}

/** The mail plugin (the `Fluid` of `@fw/kernel` has it). */
export function mail(): Plugin {
  let mailer: Mailer | undefined;
  return {
    name: 'mail',
    register(fluid) {
      Object.defineProperty(fluid, 'mail', {
        enumerable: true,
        get: () => (mailer ??= new Mailer({ config: fluid.config, logger: fluid.logger, render: (t, d) => fluid.render(t, d), root: fluid.root })),
      });
    },
    close: () => mailer?.close({ timeoutMs: 10_000 }),
  };
}
