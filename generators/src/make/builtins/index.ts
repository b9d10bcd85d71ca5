import type { Builtin } from '../builtin.js';
import { event } from './event.js';
import { guard } from './guard.js';
import { mail } from './mail.js';
import { model } from './model.js';
import { page } from './page.js';
import { plugin } from './plugin.js';
import { route } from './route.js';
import { test } from './test.js';

/** fw's own `fw make` generators, in the order `fw make --list` shows them. */
export const BUILTINS: readonly Builtin[] = [route, page, model, mail, guard, event, test, plugin];
