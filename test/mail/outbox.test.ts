import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FrameworkException } from '@fw/kernel/core';
import { Mailer } from '@fw/kernel/mail';
import { captureLogger, parse, templates } from './helpers.ts';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'fw-mail-outbox-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('development outbox (no MAIL_SERVER)', () => {
  it('writes each message as a readable .eml file under <root>/var/outbox and logs where', async () => {
    const logger = captureLogger();
    const mailer = new Mailer({
      config: { MAIL_DEFAULT_SENDER: 'App <noreply@example.test>' },
      logger,
      root,
      render: templates(
        {
          'mail/welcome.html': '<p>Hi {{name}}</p><a href="{{url_for "home" _external=true}}">Open</a>',
          'mail/welcome.txt': 'Hi {{name}}\nOpen: {{url_for "home" _external=true}}',
        },
        'http://localhost:8000',
      ),
    });
    const dir = join(root, 'var', 'outbox');
    expect(logger.lines[0]).toMatchObject({ level: 'info' });
    expect(logger.lines[0]?.message).toContain(dir);

    const first = await mailer.send({ to: 'ann@example.test', subject: 'Plain one', text: 'Hello' });
    const second = await mailer.sendTemplate({ to: 'bob@example.test', subject: 'Welcome', template: 'mail/welcome', data: { name: 'Bob & Co' } });

    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    expect(files.every((f) => /^\d{8}T\d{6}-\d{3}Z-.+\.eml$/.test(f))).toBe(true);
    expect(files).toEqual([basename(first.file as string), basename(second.file as string)].sort());
    expect(first.accepted).toEqual(['ann@example.test']);
    expect(basename(first.file as string)).toContain(first.messageId.replace(/^<|>$/g, '').split('@')[0]);

    const raw = readFileSync(second.file as string);
    expect(raw.toString()).toMatch(/^Content-Type: multipart\/alternative/m);
    const mail = await parse(raw);
    expect(mail.messageId).toBe(second.messageId);
    expect(mail.from?.value[0]).toEqual({ name: 'App', address: 'noreply@example.test' });
    expect(mail.subject).toBe('Welcome');
    expect(mail.html).toBe('<p>Hi Bob &amp; Co</p><a href="http://localhost:8000/home">Open</a>');
    expect(mail.text?.trim()).toBe('Hi Bob & Co\nOpen: http://localhost:8000/home');
    expect(logger.lines.filter((l) => l.message.startsWith('mail: wrote ')).map((l) => l.fields?.file)).toEqual([
      first.file,
      second.file,
    ]);
    // Atomic writes leave no temporary files behind.
    expect(readdirSync(dir).filter((f) => f.startsWith('.'))).toEqual([]);
    await mailer.close();
  });

  it('with DEBUG off (production) the outbox is a warning: that mail reaches nobody', () => {
    const logger = captureLogger();
    new Mailer({ config: { DEBUG: false }, logger, root });
    expect(logger.lines).toEqual([
      {
        level: 'warn',
        message: `mail: MAIL_SERVER is not set, and DEBUG is off: outgoing mail is written to ${join(root, 'var', 'outbox')} as .eml files and reaches nobody; set MAIL_SERVER (npx fw docs mail)`,
        fields: { outbox: join(root, 'var', 'outbox') },
      },
    ]);
    const debug = captureLogger();
    new Mailer({ config: { DEBUG: true }, logger: debug, root });
    expect(debug.lines.map((l) => l.level)).toEqual(['info']);
  });

  it('recreates the outbox folder when it is removed while the app runs', async () => {
    const mailer = new Mailer({ config: { MAIL_DEFAULT_SENDER: 'a@example.test' }, logger: captureLogger(), root });
    await mailer.send({ to: 'b@example.test', subject: 'one', text: '1' });
    rmSync(mailer.outboxDir, { recursive: true });
    const info = await mailer.send({ to: 'b@example.test', subject: 'two', text: '2' });
    expect(readdirSync(mailer.outboxDir)).toEqual([basename(info.file as string)]);
    expect((await parse(readFileSync(info.file as string))).subject).toBe('two');
  });

  it('an unwritable outbox is a FrameworkException naming the folder and MAIL_OUTBOX_DIR', async () => {
    writeFileSync(join(root, 'blocker'), 'a file where the folder should be');
    const mailer = new Mailer({ config: { MAIL_OUTBOX_DIR: 'blocker/outbox' }, logger: captureLogger(), root });
    const err = await mailer.send({ from: 'a@example.test', to: 'b@example.test', subject: 's', text: 't' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FrameworkException);
    expect((err as Error).message).toContain(join(root, 'blocker/outbox'));
    expect((err as Error).message).toContain('MAIL_OUTBOX_DIR');
    await expect(mailer.verify()).rejects.toThrow(/cannot write to the outbox/);
  });
});
