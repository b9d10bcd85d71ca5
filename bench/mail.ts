/**
 * Mail: fw's `Mailer` against raw nodemailer, sending the same messages to the same local
 * smtp-server in this process.
 *
 *   npx tsx bench/mail.ts            # BENCH_MESSAGES=200 BENCH_CONCURRENCY=25 by default
 *
 * Both clients open one SMTP connection per message (nodemailer's default, non-pooled transport),
 * so the figures are dominated by connection setup; the ratio is the number to watch (the
 * wrapper's own cost: config, error wrapping, in-flight tracking). Each case runs twice in
 * alternating order after a warm-up; the better run of each is reported.
 *
 * smtp-server holds its greeting for about 100 ms (its early-talker check), so the sequential SMTP
 * row measures mostly that wait. The outbox baseline is nodemailer's stream transport plus a plain
 * `writeFile`; fw also writes atomically (temporary file, then rename) and logs each file.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { createLogger } from '../runtime-kernel/src/core/index.ts';
import { Mailer } from '../runtime-kernel/src/mail/index.ts';

const messages = Number(process.env.BENCH_MESSAGES ?? 200);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 25);
const logger = createLogger('silent');
const work = mkdtempSync(join(tmpdir(), 'fw-bench-mail-'));

execFileSync('openssl', [
  'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
  '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(work, 'key.pem'), '-out', join(work, 'cert.pem'),
], { stdio: 'pipe' });
const key = readFileSync(join(work, 'key.pem'), 'utf8');
const cert = readFileSync(join(work, 'cert.pem'), 'utf8');

async function smtp(tls: boolean): Promise<{ port: number; server: SMTPServer }> {
  const server = new SMTPServer({
    logger: false,
    disableReverseLookup: true,
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(tls ? { key, cert } : {}),
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => callback());
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port, server };
}

const plain = await smtp(false);
const secure = await smtp(true);

const message = (i: number) => ({
  from: 'bench@example.test',
  to: `user${i}@example.test`,
  subject: `Message ${i}`,
  text: `Hello user ${i}\nhttps://app.example.test/verify/${i}\n`,
  html: `<p>Hello user ${i}</p><p><a href="https://app.example.test/verify/${i}">Verify</a></p>`,
});

/** Sends `messages` messages with at most `parallel` in flight; returns messages per second. */
async function measure(send: (i: number) => Promise<unknown>, parallel: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  const lane = async () => {
    while (next < messages) await send(next++);
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return messages / ((performance.now() - started) / 1000);
}

type Sender = (i: number) => Promise<unknown>;
interface Case {
  name: string;
  parallel: number;
  raw: Sender;
  fw: Sender;
}

const rawPlain = nodemailer.createTransport({ host: '127.0.0.1', port: plain.port, ignoreTLS: true });
const fwPlain = new Mailer({ config: { MAIL_SERVER: '127.0.0.1', MAIL_PORT: plain.port, MAIL_USE_STARTTLS: false }, logger, root: work });
const rawTls = nodemailer.createTransport({ host: '127.0.0.1', port: secure.port, requireTLS: true, tls: { ca: cert } });
const fwTls = new Mailer({ config: { MAIL_SERVER: '127.0.0.1', MAIL_PORT: secure.port, MAIL_TLS_CA: cert }, logger, root: work });
const rawOutbox = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
const fwOutbox = new Mailer({ config: { MAIL_OUTBOX_DIR: join(work, 'fw-outbox') }, logger, root: work });
mkdirSync(join(work, 'raw-outbox'));

const cases: Case[] = [
  { name: 'plain SMTP, sequential', parallel: 1, raw: (i) => rawPlain.sendMail(message(i)), fw: (i) => fwPlain.send(message(i)) },
  {
    name: `plain SMTP, ${concurrency} in flight`,
    parallel: concurrency,
    raw: (i) => rawPlain.sendMail(message(i)),
    fw: (i) => fwPlain.send(message(i)),
  },
  {
    name: `STARTTLS, ${concurrency} in flight`,
    parallel: concurrency,
    raw: (i) => rawTls.sendMail(message(i)),
    fw: (i) => fwTls.send(message(i)),
  },
  {
    name: 'outbox .eml, sequential',
    parallel: 1,
    raw: async (i) => {
      const info = await rawOutbox.sendMail(message(i));
      await writeFile(join(work, 'raw-outbox', `${i}.eml`), info.message as Buffer);
    },
    fw: (i) => fwOutbox.send(message(i)),
  },
];

const rows: string[][] = [];
for (const c of cases) {
  await measure(c.raw, c.parallel); // warm-up
  await measure(c.fw, c.parallel);
  const raw = await measure(c.raw, c.parallel);
  const fw = await measure(c.fw, c.parallel);
  const fw2 = await measure(c.fw, c.parallel);
  const raw2 = await measure(c.raw, c.parallel);
  const best = { raw: Math.max(raw, raw2), fw: Math.max(fw, fw2) };
  rows.push([c.name, best.raw.toFixed(0), best.fw.toFixed(0), `${((best.fw / best.raw) * 100).toFixed(0)}%`]);
}

const header = ['case', 'raw nodemailer msg/s', 'fw Mailer msg/s', 'fw / raw'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ') + ' |';
console.log(`mail: ${messages} messages per run, one SMTP connection per message`);
console.log(line(header));
console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
for (const r of rows) console.log(line(r));

await Promise.all([fwPlain.close(), fwTls.close(), fwOutbox.close()]);
rawPlain.close();
rawTls.close();
await new Promise<void>((resolve) => plain.server.close(() => resolve()));
await new Promise<void>((resolve) => secure.server.close(() => resolve()));
rmSync(work, { recursive: true, force: true });
