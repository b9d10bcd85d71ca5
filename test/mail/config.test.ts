import { describe, expect, it } from 'vitest';
import { FrameworkException } from '@fw/kernel/core';
import { Mailer } from '@fw/kernel/mail';
import { captureLogger } from './helpers.ts';

const root = '/srv/app';

describe('mail configuration', () => {
  it('defaults to STARTTLS on port 587', () => {
    const mailer = new Mailer({ config: { MAIL_SERVER: 'smtp.example.test' }, logger: captureLogger(), root });
    expect(mailer.mode).toBe('smtp');
    expect(mailer.security).toBe('starttls');
    expect(mailer.address).toBe('smtp.example.test:587');
  });

  it('throws FrameworkException at construction when both TLS flags are set, saying which to choose', () => {
    const build = () =>
      new Mailer({
        config: { MAIL_SERVER: 'smtp.example.test', MAIL_USE_TLS: true, MAIL_USE_STARTTLS: true },
        logger: captureLogger(),
        root,
      });
    expect(build).toThrow(FrameworkException);
    expect(build).toThrow(/MAIL_USE_TLS=true with MAIL_PORT=465 for implicit TLS/);
    expect(build).toThrow(/MAIL_USE_STARTTLS=true with MAIL_PORT=587 for STARTTLS, not both/);
  });

  it('only MAIL_USE_TLS=true still collides with the STARTTLS default', () => {
    expect(
      () => new Mailer({ config: { MAIL_SERVER: 'h', MAIL_USE_TLS: true, MAIL_PORT: 465 }, logger: captureLogger(), root }),
    ).toThrow(/both set/);
    const ok = new Mailer({
      config: { MAIL_SERVER: 'h', MAIL_USE_TLS: true, MAIL_USE_STARTTLS: false, MAIL_PORT: 465 },
      logger: captureLogger(),
      root,
    });
    expect(ok.security).toBe('tls');
  });

  it('rejects a bad MAIL_PORT and a non-boolean flag, naming the key', () => {
    expect(() => new Mailer({ config: { MAIL_SERVER: 'h', MAIL_PORT: 70000 }, logger: captureLogger(), root })).toThrow(
      /MAIL_PORT must be an integer from 1 to 65535/,
    );
    const config = JSON.parse('{"MAIL_SERVER":"h","MAIL_USE_TLS":"maybe"}') as { MAIL_USE_TLS: boolean };
    expect(() => new Mailer({ config, logger: captureLogger(), root })).toThrow(/MAIL_USE_TLS must be true or false, got "maybe"/);
    // Text from an ini file is read as a flag.
    const text = JSON.parse('{"MAIL_SERVER":"h","MAIL_USE_TLS":"True","MAIL_USE_STARTTLS":"0","MAIL_PORT":465}') as { MAIL_USE_TLS: boolean };
    expect(new Mailer({ config: text, logger: captureLogger(), root }).security).toBe('tls');
  });

  it('plain SMTP with a password warns that credentials travel in clear', () => {
    const logger = captureLogger();
    const mailer = new Mailer({
      config: { MAIL_SERVER: 'h', MAIL_PORT: 25, MAIL_USE_STARTTLS: false, MAIL_USERNAME: 'u', MAIL_PASSWORD: 'pw-secret' },
      logger,
      root,
    });
    expect(mailer.security).toBe('plain');
    const warn = logger.lines.find((l) => l.level === 'warn');
    expect(warn?.message).toMatch(/travel in clear to h:25/);
    expect(JSON.stringify(logger.lines)).not.toContain('pw-secret');
  });

  it('warns about a port that does not match the TLS mode', () => {
    const logger = captureLogger();
    new Mailer({ config: { MAIL_SERVER: 'h', MAIL_PORT: 465 }, logger, root });
    expect(logger.lines.some((l) => l.level === 'warn' && /MAIL_PORT=465/.test(l.message))).toBe(true);
  });

  it('without MAIL_SERVER uses the outbox under the root, or MAIL_OUTBOX_DIR relative to it', () => {
    const logger = captureLogger();
    const dev = new Mailer({ config: {}, logger, root });
    expect(dev.mode).toBe('outbox');
    expect(dev.outboxDir).toBe('/srv/app/var/outbox');
    expect(logger.lines.some((l) => l.level === 'info' && l.message.includes('/srv/app/var/outbox'))).toBe(true);
    expect(new Mailer({ config: { MAIL_OUTBOX_DIR: 'tmp/mail' }, logger, root }).outboxDir).toBe('/srv/app/tmp/mail');
  });
});
