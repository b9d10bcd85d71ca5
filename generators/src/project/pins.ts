/**
 * The exact versions of the optional packages fw adds to an app's `package.json` when its config
 * uses a subsystem (see `dependencies.ts`). One source of truth:
 *
 * - what the kernel loads (Vite, Tailwind, Prisma's client and adapters, nodemailer, ioredis) is
 *   an optional peer dependency of `@fw/kernel` (`peerDependencies` + `peerDependenciesMeta`),
 *   and the app gets the version that range starts at (`^10.6.0` → `10.6.0`);
 * - what the kernel loads in development and builds only (Vite and its dev-server proxy) is in
 *   `@fw/kernel`'s own `fwDevPackages` field (exact versions), not a peer: npm would keep a
 *   devOptional peer in `npm ci --omit=dev`. The app lists these as devDependencies;
 * - what only code fw generates or runs needs (`typesafe-i18n` for the typed translation modules,
 *   the `prisma` CLI, the auth scaffold's argon2, otplib and qrcode), and `prettier` (the app's `npm run format` must write what fw's formatter
 *   writes), is pinned by `@fw/cli`'s own package.json: the version fw itself uses.
 *
 * In a checkout both package.json files are read in place; the build writes the result to
 * `pins.json` in the published `@fw/cli` and `create-fw-app` (which have no kernel next to them).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkoutRoot, PACKAGE_ROOT } from '../package-info.js';

/** The file the build writes the pins to, at the package root. */
export const PINS_FILE = 'pins.json';

/** The packages whose pin is `@fw/cli`'s own (the kernel never loads them). */
export const CLI_PINNED = ['prettier', 'prisma', 'typesafe-i18n', '@node-rs/argon2', 'otplib', 'qrcode', '@types/qrcode'] as const;

interface PackageJsonPins {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  /** `@fw/kernel`'s packages of development and builds only (see the module comment). */
  fwDevPackages?: Record<string, string>;
}

/** The pins from the kernel's and the CLI's package.json (see the module comment). */
export function pinsFrom(kernel: PackageJsonPins, cli: PackageJsonPins): Record<string, string> {
  const pins: Record<string, string> = {};
  for (const [name, range] of Object.entries(kernel.peerDependencies ?? {})) {
    if (kernel.peerDependenciesMeta?.[name]?.optional === true) pins[name] = range.replace(/^[\^~=]/, '');
  }
  for (const [name, range] of Object.entries(kernel.fwDevPackages ?? {})) pins[name] = range.replace(/^[\^~=]/, '');
  for (const name of CLI_PINNED) {
    const version = cli.dependencies?.[name] ?? cli.devDependencies?.[name];
    if (version !== undefined) pins[name] = version;
  }
  return Object.fromEntries(Object.entries(pins).sort(([a], [b]) => a.localeCompare(b)));
}

const readJson = (file: string): PackageJsonPins => JSON.parse(readFileSync(file, 'utf8')) as PackageJsonPins;

let pins: Readonly<Record<string, string>> | undefined;

/** Every pin (name → exact version): from the checkout's package.json files, else the shipped `pins.json`. */
export function optionalPins(): Readonly<Record<string, string>> {
  if (!pins) {
    const checkout = checkoutRoot();
    const shipped = path.join(PACKAGE_ROOT, PINS_FILE);
    if (checkout !== undefined) pins = pinsFrom(readJson(path.join(checkout, 'runtime-kernel/package.json')), readJson(path.join(checkout, 'generators/package.json')));
    else if (existsSync(shipped)) pins = readJson(shipped) as Record<string, string>;
    else throw new Error(`${shipped} is missing: this fw package was built without its pins (run its build)`);
  }
  return pins;
}

/** The exact version of the optional package `name`; a package fw does not pin is a programming error. */
export function pinOf(name: string): string {
  const version = optionalPins()[name];
  if (version === undefined) throw new Error(`fw pins no version of ${name}: add it to @fw/kernel's optional peerDependencies or fwDevPackages (or @fw/cli's CLI_PINNED)`);
  return version;
}
