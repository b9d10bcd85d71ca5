/**
 * Mail: the kernel's `Mailer` against raw nodemailer sending the same messages, in this process,
 * to a local SMTP server in its own process (plain, and STARTTLS), and to the development outbox
 * (fw writes .eml files atomically; the baseline is nodemailer's stream transport plus a
 * `writeFile`). Both SMTP clients open one connection per message (nodemailer's default transport),
 * `BENCH_CONCURRENCY` in flight; the CPU column is this process's (the client's) per message.
 *
 *   npm run bench -- mail        # BENCH_ROUNDS=5 BENCH_MESSAGES=200 BENCH_CONCURRENCY=25
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createLogger } from '@fw/kernel/core';
import { Mailer } from '@fw/kernel/mail';
import nodemailer from 'nodemailer';
import { interleave } from './lib/interleave.ts';
import { tempDir } from './lib/project.ts';
import { pairedRow, report, type Row, type Sample } from './lib/report.ts';
import { startServer, stopAll, type RunningServer } from './lib/server.ts';
import { BENCH_DIR, knob, rounds } from './lib/settings.ts';

const ROUNDS = rounds(5);
const MESSAGES = knob('BENCH_MESSAGES', 200, 25);
const CONCURRENCY = knob('BENCH_CONCURRENCY', 25, 25);
const work = tempDir('mail');
const logger = createLogger('silent');
// prettier-ignore
execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
  '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(work, 'key.pem'), '-out', join(work, 'cert.pem')], { stdio: 'pipe' });
const cert = readFileSync(join(work, 'cert.pem'), 'utf8');

const message = (i: number) => ({
  from: 'bench@example.test',
  to: `user${i}@example.test`,
  subject: `Message ${i}`,
  text: `Hello user ${i}\nhttps://app.example.test/verify/${i}\n`,
  html: `<p>Hello user ${i}</p><p><a href="https://app.example.test/verify/${i}">Verify</a></p>`,
});

type Send = (i: number) => Promise<unknown>;

/** Sends MESSAGES messages, `parallel` in flight: messages per second and CPU per message. */
async function batch(send: Send, parallel: number): Promise<Sample> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const lane = async (): Promise<void> => {
    while (next < MESSAGES) await send(next++);
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { value: MESSAGES / seconds, cpu: (used.user + used.system) / MESSAGES };
}

async function compare(name: string, parallel: number, fw: Send, raw: Send): Promise<Row> {
  const sides = { fw, raw };
  for (const send of Object.values(sides)) await batch(send, parallel); // warm-up
  const runs = await interleave(['fw', 'raw'] as const, ROUNDS, (k) => batch(sides[k], parallel));
  return pairedRow({
    bench: 'mail',
    name,
    unit: 'msg/s',
    per: 'message',
    fw: { label: 'fw Mailer', samples: runs.fw },
    baseline: { label: 'raw nodemailer', samples: runs.raw },
  });
}

const servers: RunningServer[] = [];
try {
  const script = join(BENCH_DIR, 'servers', 'smtp.ts');
  const [plain, secure] = await Promise.all([
    startServer(script, ['plain'], { name: 'smtp (plain)' }),
    startServer(script, ['tls', join(work, 'key.pem'), join(work, 'cert.pem')], { name: 'smtp (STARTTLS)' }),
  ]);
  servers.push(plain, secure);
  const rawPlain = nodemailer.createTransport({ host: '127.0.0.1', port: plain.port, ignoreTLS: true });
  const fwPlain = new Mailer({ config: { MAIL_SERVER: '127.0.0.1', MAIL_PORT: plain.port, MAIL_USE_STARTTLS: false }, logger, root: work });
  const rawTls = nodemailer.createTransport({ host: '127.0.0.1', port: secure.port, requireTLS: true, tls: { ca: cert } });
  const fwTls = new Mailer({ config: { MAIL_SERVER: '127.0.0.1', MAIL_PORT: secure.port, MAIL_TLS_CA: cert }, logger, root: work });
  const rawOutbox = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const fwOutbox = new Mailer({ config: { MAIL_OUTBOX_DIR: join(work, 'fw-outbox') }, logger, root: work });
  mkdirSync(join(work, 'raw-outbox'));
  const rows = [
    await compare(`plain SMTP, ${CONCURRENCY} in flight`, CONCURRENCY, (i) => fwPlain.send(message(i)), (i) => rawPlain.sendMail(message(i))),
    await compare(`STARTTLS, ${CONCURRENCY} in flight`, CONCURRENCY, (i) => fwTls.send(message(i)), (i) => rawTls.sendMail(message(i))),
    await compare(
      'outbox .eml, one at a time',
      1,
      (i) => fwOutbox.send(message(i)),
      async (i) => {
        const info = await rawOutbox.sendMail(message(i));
        await writeFile(join(work, 'raw-outbox', `${i}.eml`), info.message as Buffer);
      },
    ),
  ];
  await Promise.all([fwPlain.close(), fwTls.close(), fwOutbox.close()]);
  rawPlain.close();
  rawTls.close();
  report('Mail', `${ROUNDS} interleaved rounds of ${MESSAGES} messages per side; SMTP server in its own process; CPU = this (client) process's per message`, rows);
} finally {
  await stopAll(servers);
}
