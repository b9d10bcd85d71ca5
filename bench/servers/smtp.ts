/**
 * A local SMTP sink (smtp-server) for bench/mail.ts: plain (argv[2] = `plain`) or with STARTTLS
 * from the key and certificate files argv[3] and argv[4]. Accepts and discards every message.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { SMTPServer } from 'smtp-server';
import { announce } from '../lib/server.ts';

const [mode = 'plain', keyFile = '', certFile = ''] = process.argv.slice(2);
const tls = mode === 'tls';
const server = new SMTPServer({
  logger: false,
  disableReverseLookup: true,
  disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
  ...(tls ? { key: readFileSync(keyFile), cert: readFileSync(certFile) } : {}),
  onData(stream, _session, callback) {
    stream.on('data', () => undefined);
    stream.on('end', () => callback());
  },
});
server.listen(0, '127.0.0.1', () => announce(server.server as unknown as Server));
