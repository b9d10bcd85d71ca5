/**
 * `Auth`: the per-app auth state the auth plugin creates (`fluid.auth`): the user service, the
 * cache, the session store, the CSRF signer and the bearer tokens.
 */
import type { FluidCore } from '../core/fluid.js';
import type { FluidContext } from '../core/context.js';
import type { Cache } from '../cache/cache.js';
import { FrameworkException, HttpError } from '../core/errors.js';
import { KeyRing } from '../tokens/keys.js';
import { TokenService, type TokenClaims } from '../tokens/tokens.js';
import { PayloadSigner } from './signed.js';
import { emailVerified, isPositiveIntegerId, type User, type UserService } from './user.js';

/** Options of `installAuth(fluid, options)`. */
export interface AuthOptions<U extends User = User> {
  /** The app's user service. */
  users: UserService<U>;
  /** The cache for sessions and signing keys; default the app's (`fluid.cache`, from `CACHE_TYPE`). Closed with the app. */
  cache?: Cache;
  /** Session lifetime in seconds; default 14 days. */
  sessionMaxAge?: number;
  /** The longest bearer-token lifetime in seconds; default 1 day. */
  tokenMaxAge?: number;
  /** Session cookie name; default `fw.sid`. */
  cookieName?: string;
  /** Name of the signed cookie binding an anonymous visitor's CSRF tokens; default `fw.csrf`. */
  csrfCookieName?: string;
  /**
   * Where anonymous HTML `GET` requests to a guarded route are sent (with `?redirect=<path>`);
   * default none (they get the 401 page).
   */
  signInUrl?: string;
}

const OPTION_NAMES: readonly (keyof AuthOptions)[] = ['users', 'cache', 'sessionMaxAge', 'tokenMaxAge', 'cookieName', 'csrfCookieName', 'signInUrl'];

/**
 * Refuses a misspelt option (which would be ignored: `signinUrl` leaves guards answering 401) and
 * a value that cannot work, naming the option and what it got.
 */
function checkOptions(options: AuthOptions<User>): void {
  const where = 'installAuth(fluid, options) / auth(options)';
  for (const key of Object.keys(options)) {
    if ((OPTION_NAMES as readonly string[]).includes(key)) continue;
    const meant = OPTION_NAMES.find((name) => name.toLowerCase() === key.toLowerCase());
    throw new FrameworkException(
      `${where}: unknown option ${key}; ${meant ? `did you mean ${meant}?` : `expected one of ${OPTION_NAMES.join(', ')}`}`,
    );
  }
  for (const key of ['sessionMaxAge', 'tokenMaxAge'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      throw new FrameworkException(`${where}: ${key} must be a whole number of seconds, at least 1; got ${JSON.stringify(value)}`);
    }
  }
  for (const key of ['cookieName', 'csrfCookieName'] as const) {
    const value = options[key];
    if (value !== undefined && !(typeof value === 'string' && /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(value))) {
      throw new FrameworkException(`${where}: ${key} must be a cookie name (letters, digits and !#$%&'*+-.^_\`|~); got ${JSON.stringify(value)}`);
    }
  }
  const signIn = options.signInUrl;
  if (signIn !== undefined && !(typeof signIn === 'string' && (/^\/(?![/\\])/.test(signIn) || /^https?:\/\//i.test(signIn)))) {
    throw new FrameworkException(`${where}: signInUrl must be a path such as '/sign-in' (or an http(s) URL); got ${JSON.stringify(signIn)}`);
  }
}

/** The app's auth state. */
export class Auth<U extends User = User> {
  /** The app this auth state belongs to. */
  readonly fluid: FluidCore;
  /** The app's user service (`AuthOptions.users`): finds users and answers their roles and permissions. */
  readonly users: UserService<U>;
  /** The options `installAuth` was given, with the defaults filled in. */
  readonly options: Readonly<AuthOptions<U>> & { sessionMaxAge: number; tokenMaxAge: number; cookieName: string; csrfCookieName: string };
  /** Signs CSRF tokens and other typed payloads (key derived from `SECRET_KEY`). */
  readonly signer: PayloadSigner;
  /** The bearer-token service. */
  readonly tokens: TokenService;
  /** Whether a string is a principal id of this app. */
  readonly isPrincipalId: (id: string) => boolean;
  /** The app's `SECRET_KEY`, from which the session, CSRF and token keys are derived (`deriveKey`); never send it anywhere. */
  readonly secret: string;
  #cache: Cache | undefined;

  constructor(fluid: FluidCore, options: AuthOptions<U>) {
    if (!options?.users || typeof options.users.findById !== 'function') {
      throw new FrameworkException('installAuth(fluid, { users }): users must implement UserService (findById, emailVerified, has2fa, isAdmin, roles, permissions)');
    }
    checkOptions(options);
    const secret = fluid.config.SECRET_KEY;
    if (!secret) throw new FrameworkException(`installAuth: SECRET_KEY is not set (put it in app_configs/${fluid.name}.ini or SECRET_KEY_FILE)`);
    this.fluid = fluid;
    this.users = options.users;
    this.secret = secret;
    this.options = { sessionMaxAge: 14 * 86400, tokenMaxAge: 86400, cookieName: 'fw.sid', csrfCookieName: 'fw.csrf', ...options };
    this.#cache = options.cache;
    this.isPrincipalId = options.users.isPrincipalId ? (id) => options.users.isPrincipalId!(id) : isPositiveIntegerId;
    this.signer = new PayloadSigner(secret, 'signed');
    const keys = new KeyRing({ cache: () => this.cache, secret, maxTokenSeconds: this.options.tokenMaxAge });
    this.tokens = new TokenService({ keys, isPrincipalId: this.isPrincipalId });
  }

  /** The cache: the one given in the options, else the app's (`fluid.cache`, opened on first use). */
  get cache(): Cache {
    return this.#cache ?? this.fluid.cache;
  }

  /**
   * A bearer token for `user` carrying `grants`, valid `ttlSeconds`. Only verified principals get
   * one: an unset or unverified address throws `HttpError(401)` code `EMAIL_NOT_VERIFIED`.
   */
  async mintToken(user: U, grants: readonly string[], ttlSeconds: number): Promise<string> {
    if (!(await emailVerified(this.users, user))) {
      throw new HttpError(401, 'Tokens are issued only to users with a verified e-mail address', {
        code: 'EMAIL_NOT_VERIFIED',
        headers: { 'WWW-Authenticate': `Bearer realm="${this.fluid.name}"` },
      });
    }
    return this.tokens.mint(String(user.id), grants, ttlSeconds);
  }

  /** The claims of a valid bearer token; otherwise `InvalidTokenError` (401). */
  verifyToken(token: string): Promise<TokenClaims> {
    return this.tokens.verify(token);
  }

  /** Closes a cache given in the options (the app's own closes with the app); run when the app closes. */
  async close(): Promise<void> {
    this.tokens.keys.close();
    await this.#cache?.close();
  }
}

/** The auth installed on the request's app; a clear error when `installAuth` was not called. */
export function authOf(ctxOrFluid: FluidContext | FluidCore): Auth {
  const fluid = 'koa' in ctxOrFluid ? ctxOrFluid : ctxOrFluid.fluid; // an app has `koa`, a context has `fluid`
  if (!fluid.plugins.has('auth')) throw new FrameworkException('auth is not installed: call installAuth(fluid, { users }) in fluid/app.ts');
  return fluid.auth;
}
