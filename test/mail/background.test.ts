import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FrameworkException } from '@fw/kernel/core';
import { Mailer, type MailConfig } from '@fw/kernel/mail';
import { captureLogger, closedPort, parse, startSmtp, templates, type CapturedLogger, type TestSmtp } from './helpers.ts';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
let smtp: TestSmtp | undefined;

beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});
afterEach(async () => {
  await smtp?.close();
  smtp = undefined;
});

function build(config: MailConfig, logger: CapturedLogger, render?: Parameters<typeof templates>[0]): Mailer {
  return new Mailer({
    config: { MAIL_SERVER: '127.0.0.1', MAIL_USE_STARTTLS: false, MAIL_DEFAULT_SENDER: 'noreply@example.test', ...config },
    logger,
    root: '/unused',
    ...(render === undefined ? {} : { render: templates(render, 'https://app.example.test') }),
  });
}

/** Lets pending I/O callbacks and microtasks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('background sends (sendLater, the reference fake_async=True)', () => {
  it('returns at once; a failure is logged with the recipient and never becomes an unhandled rejection', async () => {
    const logger = captureLogger();
    const mailer = build({ MAIL_PORT: await closedPort(), MAIL_PASSWORD: 'pw-not-in-logs', MAIL_USERNAME: 'u' }, logger);
    const before = unhandled.length;
    expect(mailer.sendLater({ to: 'ann@example.test', subject: 'S', text: 'T' })).toBeUndefined();
    expect(mailer.pending).toBe(1);
    await mailer.close({ timeoutMs: 5_000 });
    await settle();

    expect(unhandled.length).toBe(before);
    const errors = logger.lines.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toBe('mail: background send failed');
    expect(errors[0]?.fields?.to).toBe('ann@example.test');
    const error = errors[0]?.fields?.error;
    expect(error).toBeInstanceOf(FrameworkException);
    expect((error as Error).message).toMatch(/was refused/);
    expect(JSON.stringify(logger.lines)).not.toContain('pw-not-in-logs');
  });

  it('a failing template render in the background is logged too, not thrown', async () => {
    const logger = captureLogger();
    smtp = await startSmtp({ disabledCommands: ['STARTTLS', 'AUTH'] });
    const mailer = build({ MAIL_PORT: smtp.port }, logger, { 'mail/only.html': '<p>x</p>' });
    mailer.sendLater({ to: 'bob@example.test', subject: 'S', template: 'mail/only' });
    await mailer.close();
    await settle();
    const error = logger.lines.find((l) => l.level === 'error');
    expect(error?.fields?.to).toBe('bob@example.test');
    expect((error?.fields?.error as Error).message).toMatch(/rendering template "mail\/only.txt" failed/);
    expect(smtp.received).toHaveLength(0);
  });

  it('a templated background send is delivered off-request, with both parts', async () => {
    const logger = captureLogger();
    smtp = await startSmtp({ disabledCommands: ['STARTTLS', 'AUTH'] });
    const mailer = build({ MAIL_PORT: smtp.port }, logger, {
      'mail/reset.html': '<a href="{{url_for "reset" token=token _external=true}}">Reset</a>',
      'mail/reset.txt': 'Reset: {{url_for "reset" token=token _external=true}}',
    });
    mailer.sendLater({ to: 'cy@example.test', subject: 'Reset', template: 'mail/reset', data: { token: 'abc' } });
    await mailer.close();
    const mail = await parse(smtp.received[0]!.raw);
    expect(mail.html).toBe('<a href="https://app.example.test/reset/abc">Reset</a>');
    expect(mail.text?.trim()).toBe('Reset: https://app.example.test/reset/abc');
    expect(logger.lines.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('close() waits for a send in flight', async () => {
    const logger = captureLogger();
    smtp = await startSmtp({ disabledCommands: ['STARTTLS', 'AUTH'] }, { dataDelayMs: 400 });
    const mailer = build({ MAIL_PORT: smtp.port }, logger);
    mailer.sendLater({ to: 'dee@example.test', subject: 'Slow', text: 'T' });
    const started = Date.now();
    await mailer.close({ timeoutMs: 10_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(smtp.received.map((r) => r.to)).toEqual([['dee@example.test']]);
    expect(mailer.pending).toBe(0);
    expect(logger.lines.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('close() gives up after timeoutMs, logs the abandoned recipients once, and refuses new mail', async () => {
    const logger = captureLogger();
    smtp = await startSmtp({ disabledCommands: ['STARTTLS', 'AUTH'] }, { dataDelayMs: 3_000 });
    const mailer = build({ MAIL_PORT: smtp.port }, logger);
    mailer.sendLater({ to: 'eve@example.test', subject: 'Stuck', text: 'T' });
    const started = Date.now();
    await mailer.close({ timeoutMs: 200 });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(2_000);
    await settle();
    const errors = logger.lines.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/shutdown abandoned 1 send\(s\) still in flight after 200 ms/);
    expect(errors[0]?.fields?.recipients).toEqual(['eve@example.test']);
    expect(() => mailer.sendLater({ to: 'late@example.test', subject: 'S', text: 'T' })).toThrow(/mailer is closed/);
    await expect(mailer.close()).resolves.toBeUndefined();
  });
});
