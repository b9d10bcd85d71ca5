/**
 * The markup behind the `{{frontend}}` helper (the reference's `Frontend.include()`): the htmx and
 * Alpine script tags, served from the kernel's own static mount, plus the surface's Tailwind
 * stylesheet when it has one.
 */
import { Markup } from '../core/markup.js';
import { ALPINE_URL, HTMX_URL } from './vendor.js';

/** The part of a frontend config block (`APP_FRONTEND`, manifest `frontend`) the include reads. */
export interface FrontendIncludeBlock {
  /** The frontend type: `none`, `htmx` or `vite`. */
  type: string;
  /** Whether the include also loads Alpine.js (htmx surfaces). */
  alpine?: boolean | undefined;
}

/** A surface as the include sees it. */
export interface FrontendSurface {
  /** The surface's frontend block; absent means `{ type: 'none' }`. */
  frontend: FrontendIncludeBlock | undefined;
  /** URL of the surface's compiled `tailwind.css`, when the file exists. */
  tailwindHref?: string | undefined;
}

/**
 * The tags the `frontend()` template helper emits for a surface; `nonce` (the response's CSP
 * nonce, when it has one) goes on the script tags.
 */
export function frontendInclude(surface: FrontendSurface, nonce?: string): Markup {
  const tags: string[] = [];
  const n = nonce ? ` nonce="${nonce}"` : '';
  if (surface.tailwindHref) tags.push(`<link rel="stylesheet" href="${surface.tailwindHref}">`);
  if (surface.frontend?.type === 'htmx') {
    tags.push(`<script${n} src="${HTMX_URL}"></script>`);
    if (surface.frontend.alpine) tags.push(`<script${n} defer src="${ALPINE_URL}"></script>`);
  }
  return new Markup(tags.join('\n'));
}
