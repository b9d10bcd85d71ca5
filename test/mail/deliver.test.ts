import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Mailer } from '@fw/kernel/mail';
import { captureLogger, makeCert, parse, startSmtp, templates, type Cert, type TestSmtp } from './helpers.ts';

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

const BASE_URL = 'https://app.example.test';
const welcome = templates(
  {
    'mail/welcome.html':
      '<p>Hello {{name}}</p><p><a href="{{url_for "verify" token=token _external=true}}">Verify</a></p>',
    'mail/welcome.txt': 'Hello {{name}}\nVerify: {{url_for "verify" token=token _external=true}}\n',
  },
  BASE_URL,
);

describe('delivery to a real SMTP server', () => {
  it('implicit TLS (MAIL_USE_TLS, secure server) delivers over TLS from the first byte', async () => {
    smtp = await startSmtp({ secure: true, key: cert.key, cert: cert.cert }, { user: 'app', pass: 's3cret-pw' });
    mailer = new Mailer({
      config: {
        MAIL_SERVER: '127.0.0.1',
        MAIL_PORT: smtp.port,
        MAIL_USE_TLS: true,
        MAIL_USE_STARTTLS: false,
        MAIL_USERNAME: 'app',
        MAIL_PASSWORD: 's3cret-pw',
        MAIL_DEFAULT_SENDER: 'App <noreply@example.test>',
        MAIL_TLS_CA: cert.cert,
      },
      logger: captureLogger(),
      root: '/unused',
    });
    const info = await mailer.send({ to: 'ann@example.test', subject: 'Implicit', text: 'plain body', html: '<b>html body</b>' });

    expect(info.accepted).toEqual(['ann@example.test']);
    expect(smtp.received).toHaveLength(1);
    const got = smtp.received[0]!;
    expect(got.secure).toBe(true);
    expect(got.user).toBe('app');
    expect(got.from).toBe('noreply@example.test');
    expect(got.to).toEqual(['ann@example.test']);

    const mail = await parse(got.raw);
    expect(mail.from?.value[0]).toEqual({ name: 'App', address: 'noreply@example.test' });
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe('ann@example.test');
    expect(mail.subject).toBe('Implicit');
    expect(mail.messageId).toBe(info.messageId);
    expect(mail.date).toBeInstanceOf(Date);
    expect(Math.abs(Date.now() - (mail.date as Date).getTime())).toBeLessThan(60_000);
    expect(mail.text?.trim()).toBe('plain body');
    expect(mail.html).toBe('<b>html body</b>');
    expect(got.raw.toString()).toMatch(/Content-Type: multipart\/alternative/);
  });

  it('STARTTLS (the default) upgrades the connection before login and delivers a templated mail', async () => {
    smtp = await startSmtp({ key: cert.key, cert: cert.cert }, { user: 'app', pass: 'pw' });
    mailer = new Mailer({
      config: {
        MAIL_SERVER: '127.0.0.1',
        MAIL_PORT: smtp.port,
        MAIL_USERNAME: 'app',
        MAIL_PASSWORD: 'pw',
        MAIL_DEFAULT_SENDER: 'noreply@example.test',
      },
      logger: captureLogger(),
      render: welcome,
      root: '/unused',
      tls: { ca: cert.cert },
    });
    expect(mailer.security).toBe('starttls');
    const info = await mailer.sendTemplate({
      to: { name: 'Ann Example', address: 'ann@example.test' },
      subject: 'Welcome, Ann',
      template: 'mail/welcome',
      data: { name: 'Ann <script>', token: 'tok 1' },
    });

    const got = smtp.received[0]!;
    expect(got.secure).toBe(true);
    const mail = await parse(got.raw);
    expect(mail.messageId).toBe(info.messageId);
    expect(mail.subject).toBe('Welcome, Ann');
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0] : undefined).toEqual({
      name: 'Ann Example',
      address: 'ann@example.test',
    });
    // HTML part: autoescaped data, BASE_URL-prefixed link (escaped in the attribute).
    expect(mail.html).toContain('<p>Hello Ann &lt;script&gt;</p>');
    expect(mail.html).toContain('<a href="https://app.example.test/verify/tok%201">Verify</a>');
    // Text part: not escaped, the same absolute URL.
    expect(mail.text).toContain('Hello Ann <script>');
    expect(mail.text).toContain('Verify: https://app.example.test/verify/tok%201\n');
  });

  it('a plain (no TLS) server works when both flags are off', async () => {
    smtp = await startSmtp({ disabledCommands: ['STARTTLS', 'AUTH'] });
    mailer = new Mailer({
      config: { MAIL_SERVER: '127.0.0.1', MAIL_PORT: smtp.port, MAIL_USE_STARTTLS: false },
      logger: captureLogger(),
      root: '/unused',
    });
    await mailer.send({ from: 'a@example.test', to: 'b@example.test', subject: 'Plain', text: 'x' });
    expect(smtp.received[0]?.secure).toBe(false);
  });
});
