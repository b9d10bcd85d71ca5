/**
 * Test helpers for mail: a self-signed certificate made with openssl, a real SMTP server
 * (smtp-server) on 127.0.0.1, a capturing logger, and a templates stand-in.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import type { LogFields, Logger } from '@fw/kernel/core';

/** A PEM key and self-signed certificate for CN=localhost, IP 127.0.0.1. */
export interface Cert {
  key: string;
  cert: string;
}

/** Generates a throwaway self-signed certificate; fails clearly when openssl is missing. */
export function makeCert(): Cert {
  const dir = mkdtempSync(join(tmpdir(), 'fw-mail-cert-'));
  try {
    try {
      execFileSync(
        'openssl',
        [
          'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
          '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
          '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
        ],
        { stdio: 'pipe' },
      );
    } catch (err) {
      throw new Error(
        `The mail tests need the openssl binary to make a self-signed certificate (apt-get install openssl): ${(err as Error).message}`,
      );
    }
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One message the server accepted. */
export interface Received {
  raw: Buffer;
  /** Whether the session was encrypted (implicit TLS or after STARTTLS). */
  secure: boolean;
  user: string | undefined;
  from: string | undefined;
  to: string[];
}

/** A running test SMTP server. */
export interface TestSmtp {
  port: number;
  received: Received[];
  /** Login attempts seen (user names; the password is checked, never stored). */
  logins: string[];
  close(): Promise<void>;
}

/** Extra behaviour for {@link startSmtp}. */
export interface SmtpBehaviour {
  /** Accepted login; any other user/password is rejected with 535. */
  user?: string;
  pass?: string;
  /** Delay before answering the end of DATA, in ms. */
  dataDelayMs?: number;
}

/** Starts smtp-server on 127.0.0.1 with a free port. */
export async function startSmtp(options: SMTPServerOptions, behaviour: SmtpBehaviour = {}): Promise<TestSmtp> {
  const received: Received[] = [];
  const logins: string[] = [];
  const server = new SMTPServer({
    logger: false,
    disableReverseLookup: true,
    disabledCommands: behaviour.user === undefined ? ['AUTH'] : [],
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, callback) {
      logins.push(auth.username ?? '');
      if (auth.username === behaviour.user && auth.password === behaviour.pass) return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const done = () => {
          received.push({
            raw: Buffer.concat(chunks),
            secure: session.secure,
            user: typeof session.user === 'string' ? session.user : undefined,
            from: session.envelope.mailFrom === false ? undefined : session.envelope.mailFrom.address,
            to: session.envelope.rcptTo.map((r) => r.address),
          });
          callback();
        };
        if (behaviour.dataDelayMs) setTimeout(done, behaviour.dataDelayMs);
        else done();
      });
    },
    ...options,
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('smtp-server did not report a port');
  return {
    port: address.port,
    received,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A logger that keeps every line. */
export interface CapturedLogger extends Logger {
  lines: { level: string; message: string; fields: LogFields | undefined }[];
}

/** A logger capturing its records for assertions. */
export function captureLogger(): CapturedLogger {
  const lines: CapturedLogger['lines'] = [];
  const at = (level: string) => (message: string, fields?: LogFields) => {
    lines.push({ level, message, fields });
  };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/**
 * A stand-in for the kernel templates as the mailer sees them: handlebars, `.html` autoescaped,
 * `.txt` not, and a `url_for` helper whose `_external=true` prefixes BASE_URL (as the kernel's does).
 */
export function templates(sources: Record<string, string>, baseUrl: string) {
  const hb = Handlebars.create();
  hb.registerHelper('url_for', (name: string, options: Handlebars.HelperOptions) => {
    const { _external: external, token } = options.hash as { _external?: boolean; token?: string };
    const path = `/${name}${token === undefined ? '' : `/${encodeURIComponent(token)}`}`;
    return external === true ? `${baseUrl}${path}` : path;
  });
  return async (template: string, data: Record<string, unknown>): Promise<string> => {
    const source = sources[template];
    if (source === undefined) throw new Error(`Template '${template}' not found`);
    return hb.compile(source, { noEscape: !template.endsWith('.html') })(data);
  };
}

/** Parses a raw message with mailparser. */
export function parse(raw: Buffer): Promise<ParsedMail> {
  return simpleParser(raw);
}
