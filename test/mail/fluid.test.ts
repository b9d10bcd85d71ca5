/**
 * The mailer wired to the real kernel the way the core wires it: the Fluid's config, logger,
 * templates (with their `url_for` helper) and shutdown hook. Sent from a startup hook, so no
 * request exists.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Fluid } from '@fw/kernel';
import { TEST_SECRET } from '../kernel/helpers.js';
import { captureLogger, parse, startSmtp, type TestSmtp } from './helpers.ts';

let root: string | undefined;
let smtp: TestSmtp | undefined;

afterEach(async () => {
  await smtp?.close();
  if (root) rmSync(root, { recursive: true, force: true });
  smtp = undefined;
  root = undefined;
});

function project(config: Record<string, unknown>, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'fw-mail-fluid-'));
  writeFileSync(join(dir, 'fw.json'), JSON.stringify({ name: 'demo', config }));
  mkdirSync(join(dir, 'app_configs'));
  writeFileSync(join(dir, 'app_configs', 'demo.ini'), `SECRET_KEY = ${TEST_SECRET}\n`);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

describe('mail with the kernel Fluid', () => {
  it('a startup hook sends templated mail whose links use BASE_URL; shutdown waits for it', async () => {
    smtp = await startSmtp({ disabledCommands: ['STARTTLS', 'AUTH'] }, { dataDelayMs: 200 });
    root = project(
      {
        BASE_URL: 'https://app.example.test',
        MAIL_SERVER: '127.0.0.1',
        MAIL_PORT: smtp.port,
        MAIL_USE_STARTTLS: false,
        MAIL_DEFAULT_SENDER: 'Demo <noreply@example.test>',
      },
      {
        'fluid/templates/mail/welcome.html':
          '<p>Welcome, {{name}}!</p><p><a href="{{url_for "verify" token=token _external=true}}">Verify your address</a></p>\n',
        'fluid/templates/mail/welcome.txt':
          'Welcome, {{name}}!\n\nVerify your address: {{url_for "verify" token=token _external=true}}\n',
      },
    );
    const logger = captureLogger();
    const fluid = new Fluid({ root, env: {}, logger });
    fluid.app.get('verify', '/verify/:token', () => 'ok');
    // fluid.mail is made on first use; fluid.close() waits for its background sends.
    fluid.onStartup(() => {
      fluid.mail.sendLater({
        to: 'ann@example.test',
        subject: 'Welcome to Demo',
        template: 'mail/welcome',
        data: { name: 'Ann & <Bob>', token: 'tok/1' },
      });
    });

    await fluid.mix();
    expect(smtp.received).toHaveLength(0); // still in flight: the server answers DATA after 200 ms
    await fluid.close();
    expect(smtp.received).toHaveLength(1);

    const mail = await parse(smtp.received[0]!.raw);
    expect(mail.from?.value[0]).toEqual({ name: 'Demo', address: 'noreply@example.test' });
    expect(mail.subject).toBe('Welcome to Demo');
    expect(mail.html).toContain('<p>Welcome, Ann &amp; &lt;Bob&gt;!</p>');
    expect(mail.html).toContain('<a href="https://app.example.test/verify/tok%2F1">Verify your address</a>');
    expect(mail.text).toContain('Welcome, Ann & <Bob>!');
    expect(mail.text).toContain('Verify your address: https://app.example.test/verify/tok%2F1\n');
    expect(logger.lines.filter((l) => l.level === 'error')).toEqual([]);
  });
});
