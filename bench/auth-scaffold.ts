/**
 * The auth scaffold: sign-ins per second and their p99 at the scaffold's argon2id parameters,
 * against the same fw flow with a plain SHA-256 (so the gap is the hash, not fw); each server in
 * its own process, the load from this one (keep-alive connections, interleaved rounds). Then the
 * time to send the verification mail to the development outbox and to a local SMTP server, and the
 * latency of a failed sign-in for a known and an unknown address (account enumeration by timing:
 * BENCH_TRIES each, interleaved, one at a time).
 *
 *   npm run bench -- auth-scaffold     # BENCH_ROUNDS=3 BENCH_SECONDS=3 BENCH_CONNECTIONS=8 BENCH_MAILS=200
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { createLogger } from '@fw/kernel/core';
import { Mailer } from '@fw/kernel/mail';
import { SMTPServer } from 'smtp-server';
import { kernelProject } from './lib/project.ts';
import { startServer, stopAll, type RunningServer } from './lib/server.ts';
import { BENCH_DIR, SCRATCH, knob, rounds } from './lib/settings.ts';

const ROUNDS = rounds(3);
const SECONDS = knob('BENCH_SECONDS', 3);
const CONNECTIONS = knob('BENCH_CONNECTIONS', 8, 4);
const MAILS = knob('BENCH_MAILS', 200, 20);

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: string }

function send(agent: Agent, url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.once('error', reject);
    req.end(body);
  });
}

/** `SECONDS` of sign-ins over `CONNECTIONS` keep-alive connections: requests/s and latencies. */
async function load(server: RunningServer): Promise<{ rps: number; latencies: number[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const form = await send(agent, server.url('/sign-in'), 'GET', {});
  const cookie = ([] as string[]).concat(form.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
  const body = new URLSearchParams({ csrf_token: form.body, email: 'ann@example.test', password: 'correct horse battery' }).toString();
  const headers = { cookie, 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) };
  const latencies: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        const answer = await send(agent, server.url('/sign-in'), 'POST', headers, body);
        if (answer.status !== 302) throw new Error(`${server.name}: sign-in answered ${answer.status}: ${answer.body}`);
        latencies.push(performance.now() - t);
      }
    }),
  );
  agent.destroy();
  return { rps: latencies.length / ((performance.now() - start) / 1000), latencies };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const median = (values: number[]) => quantile([...values].sort((a, b) => a - b), 0.5);

const TRIES = knob('BENCH_TRIES', 100, 50);

/** Failed sign-ins for a known address (wrong password) and an unknown one, interleaved: latencies of each. */
async function enumeration(server: RunningServer): Promise<{ known: number[]; unknown: number[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const form = await send(agent, server.url('/sign-in'), 'GET', {});
  const cookie = ([] as string[]).concat(form.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
  const out = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < TRIES * 2; i++) {
    const which = i % 2 === 0 ? 'known' : 'unknown';
    const body = new URLSearchParams({ csrf_token: form.body, email: which === 'known' ? 'ann@example.test' : `nobody${i}@example.test`, password: 'wrong password' }).toString();
    const t = performance.now();
    const answer = await send(agent, server.url('/sign-in'), 'POST', { cookie, 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) }, body);
    if (answer.status !== 422) throw new Error(`${server.name}: a failed sign-in answered ${answer.status}`);
    out[which].push(performance.now() - t);
  }
  agent.destroy();
  return out;
}

const servers: RunningServer[] = [];
try {
  const project = kernelProject();
  const [argon, sha] = await Promise.all([
    startServer(join(BENCH_DIR, 'servers', 'auth-scaffold-sign-in.ts'), [project, 'argon2'], { name: 'argon2id' }),
    startServer(join(BENCH_DIR, 'servers', 'auth-scaffold-sign-in.ts'), [project, 'sha256'], { name: 'sha256' }),
  ]);
  servers.push(argon, sha);
  const results = new Map<string, { rps: number[]; latencies: number[] }>([['argon2id', { rps: [], latencies: [] }], ['sha256', { rps: [], latencies: [] }]]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const server of round % 2 === 0 ? [argon, sha] : [sha, argon]) {
      const run = await load(server);
      results.get(server.name)!.rps.push(run.rps);
      results.get(server.name)!.latencies.push(...run.latencies);
    }
  }
  console.log(`\nAuth scaffold sign-in: POST /sign-in (CSRF form → user → password check → signIn → 302), ${ROUNDS} interleaved rounds × ${SECONDS} s, ${CONNECTIONS} connections\n`);
  console.log('| hash | sign-ins/s (median of rounds) | p50 ms | p99 ms |');
  console.log('|---|---|---|---|');
  for (const [name, r] of results) {
    const sorted = [...r.latencies].sort((a, b) => a - b);
    console.log(`| ${name === 'argon2id' ? 'argon2id m=19456 KiB, t=2, p=1' : 'SHA-256 (baseline)'} | ${median(r.rps).toFixed(0)} | ${quantile(sorted, 0.5).toFixed(1)} | ${quantile(sorted, 0.99).toFixed(1)} |`);
  }
  const timing = await enumeration(argon);
  console.log(`\nFailed sign-in latency, argon2id, ${TRIES} tries each, interleaved (an unknown address is checked against a dummy hash)\n`);
  console.log('| address | p50 ms | p90 ms | p99 ms |');
  console.log('|---|---|---|---|');
  for (const [name, values] of Object.entries(timing)) {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(`| ${name} | ${quantile(sorted, 0.5).toFixed(1)} | ${quantile(sorted, 0.9).toFixed(1)} | ${quantile(sorted, 0.99).toFixed(1)} |`);
  }
} finally {
  await stopAll(servers);
}

// Verification mail: the scaffold's verify message, to the outbox and to a local SMTP server.
const html = '<p>Hello,</p><p>Confirm your email address for app:</p><p><a href="http://127.0.0.1:8000/verify?token=x">Confirm my address</a></p>';
const text = 'Hello,\n\nConfirm your email address for app by opening this link:\n\nhttp://127.0.0.1:8000/verify?token=x\n';
const smtp = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false, onData: (stream, _s, done) => stream.on('end', () => done()).resume() });
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const smtpPort = (smtp.server.address() as { port: number }).port;
mkdirSync(SCRATCH, { recursive: true });
const outbox = mkdtempSync(join(SCRATCH, 'outbox-'));
const logger = createLogger('error');
const mailers = {
  'dev outbox (.eml files)': new Mailer({ config: { MAIL_OUTBOX_DIR: outbox, MAIL_DEFAULT_SENDER: 'app <no-reply@localhost>' }, logger, root: SCRATCH }),
  'SMTP on 127.0.0.1 (smtp-server)': new Mailer({
    config: { MAIL_SERVER: '127.0.0.1', MAIL_PORT: smtpPort, MAIL_USE_TLS: false, MAIL_USE_STARTTLS: false, MAIL_DEFAULT_SENDER: 'app <no-reply@localhost>' },
    logger,
    root: SCRATCH,
  }),
};
console.log(`\nVerification mail send time (${MAILS} sends each, sequential; the Mailer's send() resolves when the file is renamed into place / the server accepted DATA)\n`);
console.log('| to | p50 ms | p99 ms |');
console.log('|---|---|---|');
for (const [name, mailer] of Object.entries(mailers)) {
  const times: number[] = [];
  for (let i = 0; i < MAILS; i++) {
    const t = performance.now();
    await mailer.send({ to: `user${i}@example.test`, subject: 'Confirm your email address', html, text });
    times.push(performance.now() - t);
  }
  const sorted = times.sort((a, b) => a - b);
  console.log(`| ${name} | ${quantile(sorted, 0.5).toFixed(2)} | ${quantile(sorted, 0.99).toFixed(2)} |`);
  await mailer.close({ timeoutMs: 5000 });
}
await new Promise<void>((resolve) => smtp.close(() => resolve()));
rmSync(outbox, { recursive: true, force: true });
