import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FrameworkException } from '@fw/kernel/core';
import { Mailer, type MailConfig } from '@fw/kernel/mail';
import { captureLogger, closedPort, makeCert, startSmtp, type Cert, type TestSmtp } from './helpers.ts';

const PASSWORD = 'Hunter2-very-secret';
const USER = 'mailer-user';
let cert: Cert;
let smtp: TestSmtp | undefined;
let mailer: Mailer | undefined;

beforeAll(() => {
  cert = makeCert();
});

afterEach(async () => {
  await mailer?.close();
  await smtp?.close();
  mailer = undefined;
  smtp = undefined;
});

/** A mailer for 127.0.0.1 with credentials; `ca` null trusts nothing extra. */
function build(config: MailConfig, ca: string | null = cert.cert): Mailer {
  mailer = new Mailer({
    config: {
      MAIL_SERVER: '127.0.0.1',
      MAIL_USERNAME: USER,
      MAIL_PASSWORD: PASSWORD,
      MAIL_DEFAULT_SENDER: 'noreply@example.test',
      ...(ca === null ? {} : { MAIL_TLS_CA: ca }),
      ...config,
    },
    logger: captureLogger(),
    root: '/unused',
  });
  return mailer;
}

/** Sends one message and returns the FrameworkException it must fail with. */
async function failure(m: Mailer): Promise<FrameworkException> {
  const err = await m.send({ to: 'ann@example.test', subject: 'S', text: 'T' }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FrameworkException);
  const fe = err as FrameworkException;
  expect(fe.cause).toBeInstanceOf(Error);
  // No secret anywhere in what gets printed.
  const printed = `${fe.message}\n${fe.stack ?? ''}`;
  expect(printed).not.toContain(PASSWORD);
  expect(printed).not.toContain(Buffer.from(PASSWORD).toString('base64'));
  expect(printed).not.toContain(Buffer.from(`\0${USER}\0${PASSWORD}`).toString('base64'));
  return fe;
}

describe('SMTP failures surface as FrameworkException', () => {
  it('a rejected password (535), without the password in message or stack', async () => {
    smtp = await startSmtp({ key: cert.key, cert: cert.cert }, { user: USER, pass: 'the-right-one' });
    const err = await failure(build({ MAIL_PORT: smtp.port }));
    expect(err.message).toMatch(/rejected the login/);
    expect(err.message).toContain(`127.0.0.1:${smtp.port}`);
    expect(err.message).toContain('535');
    expect((err.cause as { code?: string }).code).toBe('EAUTH');
    expect(smtp.logins).toEqual([USER]);
    expect(smtp.received).toHaveLength(0);
  });

  it('verify() connects and logs in inside the same wrapping', async () => {
    smtp = await startSmtp({ key: cert.key, cert: cert.cert }, { user: USER, pass: 'the-right-one' });
    const m = build({ MAIL_PORT: smtp.port });
    await expect(m.verify()).rejects.toThrow(/rejected the login/);
  });

  it('a refused greeting (421)', async () => {
    smtp = await startSmtp({
      onConnect(_session, callback) {
        callback(Object.assign(new Error('Too busy, try later'), { responseCode: 421 }));
      },
    });
    const err = await failure(build({ MAIL_PORT: smtp.port }));
    expect(err.message).toMatch(/refused the connection greeting/);
    expect(err.message).toContain(`127.0.0.1:${smtp.port}`);
    expect(err.message).toContain('421');
  });

  it('STARTTLS required but not offered: fails before any login is sent in clear', async () => {
    smtp = await startSmtp({ disabledCommands: ['STARTTLS'] }, { user: USER, pass: PASSWORD });
    const err = await failure(build({ MAIL_PORT: smtp.port }));
    expect(err.message).toMatch(/does not offer STARTTLS, which MAIL_USE_STARTTLS requires/);
    expect(err.message).toContain(`127.0.0.1:${smtp.port}`);
    expect(smtp.logins).toEqual([]);
    expect(smtp.received).toHaveLength(0);
  });

  it('STARTTLS hidden from EHLO (hideSTARTTLS) is still required: the upgrade is attempted and mail goes encrypted', async () => {
    smtp = await startSmtp({ key: cert.key, cert: cert.cert, hideSTARTTLS: true }, { user: USER, pass: PASSWORD });
    await build({ MAIL_PORT: smtp.port }).send({ to: 'ann@example.test', subject: 'S', text: 'T' });
    expect(smtp.received.map((r) => r.secure)).toEqual([true]);
  });

  it('a TLS failure: implicit TLS to a self-signed certificate that is not trusted', async () => {
    smtp = await startSmtp({ secure: true, key: cert.key, cert: cert.cert }, { user: USER, pass: PASSWORD });
    const err = await failure(build({ MAIL_PORT: smtp.port, MAIL_USE_TLS: true, MAIL_USE_STARTTLS: false }, null));
    expect(err.message).toMatch(/TLS with SMTP server 127\.0\.0\.1:\d+ failed/);
    expect(err.message).toMatch(/self-signed certificate/);
    expect(smtp.logins).toEqual([]);
  });

  it('a TLS failure: STARTTLS to an untrusted certificate', async () => {
    smtp = await startSmtp({ key: cert.key, cert: cert.cert }, { user: USER, pass: PASSWORD });
    const err = await failure(build({ MAIL_PORT: smtp.port }, null));
    expect(err.message).toMatch(/TLS with SMTP server 127\.0\.0\.1:\d+ failed/);
    expect(smtp.logins).toEqual([]);
  });

  it('a TLS failure: implicit TLS against a server that speaks plain SMTP', async () => {
    smtp = await startSmtp({ key: cert.key, cert: cert.cert }, { user: USER, pass: PASSWORD });
    const err = await failure(build({ MAIL_PORT: smtp.port, MAIL_USE_TLS: true, MAIL_USE_STARTTLS: false }));
    expect(err.message).toMatch(/TLS with SMTP server 127\.0\.0\.1:\d+ failed/);
  });

  it('the server down (connection refused)', async () => {
    const port = await closedPort();
    const err = await failure(build({ MAIL_PORT: port }));
    expect(err.message).toMatch(/connection to SMTP server 127\.0\.0\.1:\d+ was refused/);
    expect(err.message).toContain(`127.0.0.1:${port}`);
  });

  it('a message without a sender names MAIL_DEFAULT_SENDER', async () => {
    const m = new Mailer({ config: { MAIL_SERVER: '127.0.0.1' }, logger: captureLogger(), root: '/unused' });
    mailer = m;
    await expect(m.send({ to: 'a@example.test', subject: 's', text: 't' })).rejects.toThrow(/MAIL_DEFAULT_SENDER/);
  });
});
