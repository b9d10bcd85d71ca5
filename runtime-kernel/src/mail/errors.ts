/**
 * Turns a nodemailer failure (connect, TLS, greeting, login, envelope, data) into a
 * `FrameworkException` that names what failed and the server, with the original error as `cause`
 * and no secret in the message.
 */
import { FrameworkException } from '../core/errors.js';
import type { MailSettings } from './config.js';

/** The fields nodemailer puts on its errors that tell what failed. */
interface SmtpErrorFields {
  message: string;
  code?: string;
  originalCode?: string;
  command?: string;
  response?: string;
  responseCode?: number;
}

const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/;

/** Wraps `err` (thrown by a send or verify against `settings.address`). */
export function smtpFailure(err: unknown, settings: MailSettings): FrameworkException {
  const e = fields(err);
  const where = `SMTP server ${settings.address}`;
  const detail = redact(e.response ?? e.message, settings);
  const code = e.code ?? '';
  const original = e.originalCode ?? '';
  let what: string;
  if (code === 'EABORT') {
    what = `sending through ${where} was aborted`;
  } else if (original === 'ECONNREFUSED' || code === 'ECONNREFUSED') {
    what = `connection to ${where} was refused (is the server running and MAIL_SERVER/MAIL_PORT right?)`;
  } else if (code === 'ETIMEDOUT' || original === 'ETIMEDOUT') {
    what = `${where} did not answer in time`;
  } else if (code === 'EDNS' || original === 'ENOTFOUND') {
    what = `could not resolve the host name of ${where}`;
  } else if (code === 'ETLS' && e.command === 'STARTTLS') {
    what = `${where} does not offer STARTTLS, which MAIL_USE_STARTTLS requires`;
  } else if (code === 'ETLS' || TLS_CODE.test(original) || TLS_CODE.test(code)) {
    what =
      `TLS with ${where} failed (untrusted or invalid certificate, or MAIL_USE_TLS/MAIL_PORT ` +
      'do not match what the server speaks; see MAIL_TLS_CA for a private CA)';
  } else if (code === 'EPROTOCOL' && e.command === 'CONN') {
    what = `${where} refused the connection greeting`;
  } else if (code === 'EAUTH' || code === 'ENOAUTH') {
    what = `${where} rejected the login (check MAIL_USERNAME and MAIL_PASSWORD)`;
  } else if (code === 'EENVELOPE') {
    what = `${where} rejected the sender or the recipients`;
  } else if (code === 'EMESSAGE') {
    what = `${where} rejected the message`;
  } else if (e.responseCode === 421 || (e.command === 'CONN' && e.response !== undefined)) {
    what = `${where} refused the connection greeting`;
  } else {
    what = `sending mail through ${where} failed`;
  }
  return new FrameworkException(`Mail: ${what}: ${detail}`, { cause: err });
}

function fields(err: unknown): SmtpErrorFields {
  if (typeof err !== 'object' || err === null) return { message: String(err) };
  const record = err as Record<string, unknown>;
  const str = (key: string) => (typeof record[key] === 'string' ? (record[key] as string) : undefined);
  return {
    message: str('message') ?? String(err),
    code: str('code'),
    originalCode: str('originalCode'),
    command: str('command'),
    response: str('response'),
    responseCode: typeof record.responseCode === 'number' ? record.responseCode : undefined,
  };
}

/** Removes the password (plain and in the base64 forms SMTP AUTH uses) from `text`. */
export function redact(text: string, settings: Pick<MailSettings, 'username' | 'password'>): string {
  const { username = '', password } = settings;
  if (password === undefined || password === '') return text;
  const forms = [
    password,
    Buffer.from(password).toString('base64'),
    Buffer.from(`\0${username}\0${password}`).toString('base64'),
    Buffer.from(`${username}\0${username}\0${password}`).toString('base64'),
  ];
  let out = text;
  for (const form of forms) out = out.split(form).join('[redacted]');
  return out;
}
