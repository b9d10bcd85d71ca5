/**
 * Translates the mail settings into nodemailer SMTP transport options.
 */
import type { ConnectionOptions } from 'node:tls';
import type { MailSettings } from './config.js';

/** The nodemailer SMTP transport options fw sets. */
export interface SmtpOptions {
  host: string | undefined;
  port: number;
  secure: boolean;
  requireTLS: boolean;
  ignoreTLS: boolean;
  tls: ConnectionOptions;
  auth?: { user: string; pass: string };
  connectionTimeout: number;
  greetingTimeout: number;
  socketTimeout: number;
}

/**
 * SMTP options for the settings:
 * - `tls` (implicit TLS) → `secure: true`, TLS from the first byte;
 * - `starttls` → `requireTLS: true`, so a server that does not offer STARTTLS is an error;
 * - `plain` → `ignoreTLS: true`, nothing is encrypted.
 *
 * `tls` (e.g. `{ ca }` for a private CA) is merged over what `MAIL_TLS_CA` and
 * `MAIL_TLS_REJECT_UNAUTHORIZED` give.
 */
export function smtpOptions(settings: MailSettings, tls: ConnectionOptions = {}): SmtpOptions {
  const tlsOptions: ConnectionOptions = {
    rejectUnauthorized: settings.tlsRejectUnauthorized,
    ...(settings.tlsCa === undefined ? {} : { ca: settings.tlsCa }),
    ...tls,
  };
  return {
    host: settings.server,
    port: settings.port,
    secure: settings.security === 'tls',
    requireTLS: settings.security === 'starttls',
    ignoreTLS: settings.security === 'plain',
    tls: tlsOptions,
    ...(settings.username === undefined
      ? {}
      : { auth: { user: settings.username, pass: settings.password ?? '' } }),
    connectionTimeout: 30_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  };
}
