// @ts-check
/**
 * Injected into the kernel bundle (scripts/build.js): the kernel's private copy of zod parses
 * without compiling a parser per object schema (`new Function`). The kernel parses its config
 * once per boot, where the compile costs more than it saves (about 7% of a boot's CPU), and no
 * longer needs code generation from strings. Only this bundled copy is configured: an app's own
 * zod, and @fw/schemas as the CLI loads it, are untouched.
 */
import { config } from 'zod';

config({ jitless: true });
