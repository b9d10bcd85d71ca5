/**
 * The frontend plugin: `fluid.frontend` (from `APP_FRONTEND`) and `additive.frontend` (from each
 * Additive's manifest), the `{{frontend}}` template helper, the htmx/Alpine vendor files at
 * `/fluid/static/vendor/`, and, when the app starts, `Frontend.prepare`: Tailwind with
 * `FW_TAILWIND`, and with a Vite surface the dev proxy and HMR socket (debug) or the built files
 * (production), the index routes and the asset catch-all. Vite and Tailwind load only then.
 */
import { extendAdditives } from '../core/additive.js';
import type { Plugin } from '../core/plugin.js';
import { KERNEL_STATIC_PREFIX } from '../core/static.js';
import { Frontend, type FrontendWiring } from './frontend.js';
import type { LiveReload } from './live-reload.js';
import { serveVendor, vendorFiles } from './vendor.js';
import { renderingContext } from '../core/context.js';
import { scriptNonce } from '../security/state.js';

declare module '../core/fluid.js' {
  interface FluidCore {
    /** The app's frontend surface (from `APP_FRONTEND`); wired by `Frontend.prepare` in `mix()` (`@fw/kernel/docs/frontend.md`). */
    readonly frontend: Frontend;
  }
}

declare module '../core/additive.js' {
  interface Additive {
    /** Its frontend surface, from the `frontend` key of `manifest.json` (none when absent). */
    readonly frontend: Frontend;
  }
}

// Every Additive covers its surface from its manifest when it is made (a bad block throws there).
extendAdditives((additive) => {
  Object.defineProperty(additive, 'frontend', { value: new Frontend({ additive }), enumerable: true });
});

/** The frontend plugin (the `Fluid` of `@fw/kernel` has it). */
export function frontend(): Plugin {
  let wiring: FrontendWiring | undefined;
  let live: LiveReload | undefined;
  return {
    name: 'frontend',
    register(fluid) {
      Object.defineProperty(fluid, 'frontend', { value: new Frontend({ fluid }), enumerable: true });
      fluid.templates.registerHelper('frontend', () => {
        const ctx = renderingContext(); // rendered for a request: the script tags carry its CSP nonce when the policy needs one
        return fluid.frontend.include(ctx ? scriptNonce(ctx, false) : undefined);
      });
    },
    async build(fluid) {
      fluid.mountStatic(`${KERNEL_STATIC_PREFIX}/vendor`, { middleware: serveVendor(vendorFiles(fluid.config.FW_ALPINE_BUILD)) });
      wiring = await Frontend.prepare(fluid);
      for (const mount of wiring.mounts) fluid.mountStatic(mount.prefix, mount);
      for (const mw of wiring.before) fluid.use(mw, 'context');
      for (const mw of wiring.after) fluid.use(mw, 'fallback'); // the catch-all: after every route
      if (fluid.config.DEBUG) {
        // Development only: production never imports the live-reload module (`@fw/kernel/docs/dev.md`).
        live = (await import('./live-reload.js')).startLiveReload(fluid);
        fluid.use(live.middleware, 'first');
        fluid.processor(live.processor);
      }
    },
    upgrade: (_fluid, req, socket, head) => wiring?.upgrade(req, socket, head) ?? false, // the /vite-dev HMR socket
    stop: () => {
      // Open event streams and proxied HMR sockets would hold the server open.
      live?.close();
      wiring?.stop();
    },
    close: () => wiring?.close(),
  };
}
