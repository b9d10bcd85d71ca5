/**
 * Mail configuration: the reference's `MAIL_*` keys, their defaults and the one rule between them
 * (implicit TLS or STARTTLS, never both).
 */
import { isAbsolute, resolve } from 'node:path';
import { FrameworkException } from '../core/errors.js';

/**
 * The `MAIL_*` keys the mailer reads, as the kernel's config loader hands them over (secrets given
 * as `X_FILE` already resolved into `X`). Every key is optional; {@link resolveMailConfig} fills
 * in the defaults. The kernel's whole config object may be passed: other keys are ignored.
 */
export interface MailConfig {
  /** SMTP server host name. Unset: mail is written to the outbox folder instead of being sent. */
  MAIL_SERVER?: string | undefined;
  /**
   * The app's `DEBUG`. `false` (production) makes the outbox a warning: mail written there
   * reaches nobody (a sign-up's verification link, a password reset).
   */
  DEBUG?: boolean | undefined;
  /** SMTP port. Default 587 (STARTTLS); use 465 with `MAIL_USE_TLS` for implicit TLS. */
  MAIL_PORT?: number | undefined;
  /** Implicit TLS: TLS from the first byte (port 465). Default false. */
  MAIL_USE_TLS?: boolean | undefined;
  /** Upgrade the connection with STARTTLS and fail when the server does not offer it. Default true. */
  MAIL_USE_STARTTLS?: boolean | undefined;
  /** SMTP login user name. Login happens only when it is set. */
  MAIL_USERNAME?: string | undefined;
  /** SMTP login password (usually given as `MAIL_PASSWORD_FILE`). */
  MAIL_PASSWORD?: string | undefined;
  /** From address used when a message names none, e.g. `"App <noreply@example.com>"`. */
  MAIL_DEFAULT_SENDER?: string | undefined;
  /** Outbox folder used when `MAIL_SERVER` is unset. Default `<root>/var/outbox`; relative to the root. */
  MAIL_OUTBOX_DIR?: string | undefined;
  /** PEM certificate(s) to trust for the SMTP server (e.g. a private CA); give it as `MAIL_TLS_CA_FILE`. */
  MAIL_TLS_CA?: string | undefined;
  /** Set false to accept any server certificate (never in production). Default true. */
  MAIL_TLS_REJECT_UNAUTHORIZED?: boolean | undefined;
}

/** How the mailer talks to the server. */
export type MailSecurity = 'tls' | 'starttls' | 'plain';

/** The mail configuration with defaults applied and checked. */
export interface MailSettings {
  /** `smtp` when `MAIL_SERVER` is set, `outbox` otherwise. */
  readonly mode: 'smtp' | 'outbox';
  /** SMTP host (`MAIL_SERVER`); `undefined` in outbox mode. */
  readonly server: string | undefined;
  /** SMTP port (`MAIL_PORT`, default 587). */
  readonly port: number;
  /** `tls` (`MAIL_USE_TLS`), `starttls` (`MAIL_USE_STARTTLS`, the default) or `plain`. */
  readonly security: MailSecurity;
  /** SMTP login user (`MAIL_USERNAME`); no login when unset. */
  readonly username: string | undefined;
  /** SMTP login password (`MAIL_PASSWORD`). */
  readonly password: string | undefined;
  /** From address of a message that names none (`MAIL_DEFAULT_SENDER`). */
  readonly defaultSender: string | undefined;
  /** Absolute outbox folder. */
  readonly outboxDir: string;
  /** PEM certificate(s) trusted for the SMTP server (`MAIL_TLS_CA`). */
  readonly tlsCa: string | undefined;
  /** Refuse a server certificate that does not verify (`MAIL_TLS_REJECT_UNAUTHORIZED`, default true). */
  readonly tlsRejectUnauthorized: boolean;
  /** `host:port`, for messages. */
  readonly address: string;
}

/**
 * Applies the defaults (`MAIL_PORT=587`, `MAIL_USE_TLS=false`, `MAIL_USE_STARTTLS=true`) and
 * checks the keys. Throws `FrameworkException` naming the key for a bad value, and when both TLS
 * flags are set.
 */
export function resolveMailConfig(config: MailConfig, root: string): MailSettings {
  const useTls = flag(config, 'MAIL_USE_TLS', false);
  const useStartTls = flag(config, 'MAIL_USE_STARTTLS', true);
  if (useTls && useStartTls) {
    throw new FrameworkException(
      'MAIL_USE_TLS and MAIL_USE_STARTTLS are both set: choose one. ' +
        'Set MAIL_USE_TLS=true with MAIL_PORT=465 for implicit TLS, ' +
        'or MAIL_USE_STARTTLS=true with MAIL_PORT=587 for STARTTLS, not both ' +
        '(MAIL_USE_STARTTLS defaults to true, so implicit TLS needs MAIL_USE_STARTTLS=false).',
    );
  }
  const port = config.MAIL_PORT ?? 587;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new FrameworkException(`MAIL_PORT must be an integer from 1 to 65535, got ${JSON.stringify(port)}`);
  }
  const server = text(config, 'MAIL_SERVER');
  const outbox = text(config, 'MAIL_OUTBOX_DIR') ?? 'var/outbox';
  return {
    mode: server === undefined ? 'outbox' : 'smtp',
    server,
    port,
    security: useTls ? 'tls' : useStartTls ? 'starttls' : 'plain',
    username: text(config, 'MAIL_USERNAME'),
    password: text(config, 'MAIL_PASSWORD'),
    defaultSender: text(config, 'MAIL_DEFAULT_SENDER'),
    outboxDir: isAbsolute(outbox) ? outbox : resolve(root, outbox),
    tlsCa: text(config, 'MAIL_TLS_CA'),
    tlsRejectUnauthorized: flag(config, 'MAIL_TLS_REJECT_UNAUTHORIZED', true),
    address: `${server ?? 'localhost'}:${port}`,
  };
}

type FlagKey = 'MAIL_USE_TLS' | 'MAIL_USE_STARTTLS' | 'MAIL_TLS_REJECT_UNAUTHORIZED';
type TextKey = 'MAIL_SERVER' | 'MAIL_USERNAME' | 'MAIL_PASSWORD' | 'MAIL_DEFAULT_SENDER' | 'MAIL_OUTBOX_DIR' | 'MAIL_TLS_CA';

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

/** A boolean key; text (`true`/`false`, `1`/`0`, `yes`/`no`, `on`/`off`) is accepted for keys a config file passes through untyped. */
function flag(config: MailConfig, key: FlagKey, fallback: boolean): boolean {
  const value: unknown = config[key];
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  const word = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  if (word !== undefined && TRUE.has(word)) return true;
  if (word !== undefined && FALSE.has(word)) return false;
  throw new FrameworkException(`${key} must be true or false, got ${JSON.stringify(value)}`);
}

function text(config: MailConfig, key: TextKey): string | undefined {
  const value: unknown = config[key];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') {
    // Never echo the value: it may be a secret.
    throw new FrameworkException(`${key} must be a string, got a ${typeof value}`);
  }
  return value;
}
