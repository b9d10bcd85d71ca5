/**
 * The framework logger: the `Logger` interface every concern reports through, and the default
 * implementation `createLogger()`.
 *
 * Two formats:
 * - `json` (the default when stderr is not a terminal, i.e. in production): pino's format, one
 *   JSON object per line on stderr (`{"level":50,"time":...,"pid":...,"hostname":...,...fields,"msg":"..."}`),
 *   written together at most 10 ms after the first of them and at exit (see `stderrLines`); an
 *   `error` field is serialised with its stack. A record whose fields are all plain values
 *   (strings, numbers, booleans: the request log's line, an outage line) is written straight in
 *   pino's layout (see `plainLine`); pino writes the rest, and is loaded with the first such
 *   record, so an app that logs only plain records never loads it.
 * - `text` (the default on a terminal): one readable line, `level message {fields}`.
 *
 * `FW_LOG_LEVEL` (debug|info|warn|error|silent, default info) and `FW_LOG_FORMAT` (json|text)
 * choose; `new Fluid()` reads both from its config (the environment included).
 */
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import type { Logger as PinoLogger } from 'pino';

/** Fields attached to a log line. */
export type LogFields = Record<string, unknown>;

/** The framework logger every concern reports through. */
export interface Logger {
  /** Logs `message` with `fields` at level `debug` (written only when `FW_LOG_LEVEL=debug`). */
  debug(message: string, fields?: LogFields): void;
  /** Logs `message` with `fields` (structured values, e.g. `{ userId }`) at level `info`. */
  info(message: string, fields?: LogFields): void;
  /** Logs `message` with `fields` at level `warn`: something went wrong and was handled. */
  warn(message: string, fields?: LogFields): void;
  /** Logs `message` with `fields` at level `error`: a failure someone should look at. */
  error(message: string, fields?: LogFields): void;
}

/** Log levels in increasing severity. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** How records are written: pino's JSON lines, or one readable line. */
export type LogFormat = 'json' | 'text';

/** Options of `createLogger()`. */
export interface LoggerOptions {
  /** Lowest level written; default `FW_LOG_LEVEL` from the environment, else `info`. */
  level?: LogLevel;
  /** Default `FW_LOG_FORMAT` from the environment, else `text` when stderr is a terminal and `json` otherwise. */
  format?: LogFormat;
  /** Where `text` lines go (default stderr); `json` always goes to stderr. */
  write?: (line: string) => void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };
type Level = Exclude<LogLevel, 'silent'>;

/**
 * The default logger (see the module comment). `createLogger('silent')` and
 * `createLogger({ level, format })` both work.
 */
export function createLogger(options: LoggerOptions | LogLevel = {}, write?: (line: string) => void): Logger {
  const opts: LoggerOptions = typeof options === 'string' ? { level: options, write } : options;
  const level = opts.level ?? envLevel() ?? 'info';
  const format = opts.format ?? envFormat() ?? (process.stderr.isTTY ? 'text' : 'json');
  return format === 'json' ? pinoLogger(level) : textLogger(level, opts.write ?? ((line) => process.stderr.write(line + '\n')));
}

function envLevel(): LogLevel | undefined {
  const value = process.env.FW_LOG_LEVEL;
  return value !== undefined && Object.hasOwn(ORDER, value) ? (value as LogLevel) : undefined;
}

function envFormat(): LogFormat | undefined {
  const value = process.env.FW_LOG_FORMAT;
  return value === 'json' || value === 'text' ? value : undefined;
}

function textLogger(level: LogLevel, write: (line: string) => void): Logger {
  const threshold = ORDER[level];
  const emit = (lvl: Level) => (message: string, fields?: LogFields) => {
    if (ORDER[lvl] < threshold) return;
    // A stack reads as a stack on a terminal: below the record, one frame per line.
    const { stack, ...rest } = fields ?? {};
    const shown = typeof stack === 'string' ? rest : fields;
    const line = shown && Object.keys(shown).length ? `${lvl} ${message} ${safeJson(shown)}` : `${lvl} ${message}`;
    write(typeof stack === 'string' ? `${line}\n${stack.replace(/^/gm, '  ')}` : line);
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/** pino's numbers for the levels. */
const PINO_LEVEL: Record<Level, number> = { debug: 20, info: 30, warn: 40, error: 50 };

function pinoLogger(level: LogLevel): Logger {
  const threshold = ORDER[level];
  let pino: PinoLogger | undefined;
  const load = (): PinoLogger => {
    const factory = createRequire(import.meta.url)('pino') as typeof import('pino');
    // errWithCause: the cause is a field of its own. (`err` appends each cause's message to the
    // error's, so a message that already names its cause, as fw's do, said it twice.)
    return factory({ level, serializers: { error: factory.stdSerializers.errWithCause } }, stderrLines());
  };
  // pino's default bindings, as pino writes them after the time.
  const bindings = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  const emit = (lvl: Level) => {
    const head = `{"level":${PINO_LEVEL[lvl]},"time":`;
    return (message: string, fields?: LogFields) => {
      if (ORDER[lvl] < threshold) return;
      const plain = plainLine(head, bindings, message, fields);
      if (plain !== undefined) {
        stderrLines().write(plain);
        return;
      }
      pino ??= load();
      if (fields) pino[lvl](fields, message);
      else pino[lvl](message);
    };
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/**
 * The line pino writes for a record whose fields are all strings, numbers or booleans (the same
 * bytes: test/logging checks them against pino's), or `undefined` when a field needs pino (an
 * object, an error, an array). Why not always pino: its general path (level methods, hooks,
 * serializers, the stringifier lookup per key) cost 1,078 ns a line against 386 ns for this
 * in-process, and a pinned A/B of the hello route with the request log on measured ~4 µs of CPU
 * a request less (`@fw/kernel/docs/performance.md`, "Production defaults, third round").
 */
function plainLine(head: string, bindings: string, message: string, fields: LogFields | undefined): string | undefined {
  let props = '';
  if (fields !== undefined) {
    for (const key in fields) {
      if (!Object.hasOwn(fields, key)) continue;
      const value = fields[key];
      let json: string;
      switch (typeof value) {
        case 'undefined':
          continue; // pino leaves it out, as JSON.stringify does
        case 'string':
          json = JSON.stringify(value);
          break;
        case 'number':
          json = Number.isFinite(value) ? String(value) : 'null';
          break;
        case 'boolean':
          json = value ? 'true' : 'false';
          break;
        default:
          return undefined;
      }
      props += `,${JSON.stringify(key)}:${json}`;
    }
  }
  return `${head}${Date.now()}${bindings}${props},"msg":${JSON.stringify(message)}}\n`;
}

/** A pino destination: see {@link stderrLines}. */
interface LineDestination {
  write(line: string): boolean;
  flushSync(): void;
}

let shared: LineDestination | undefined;

/** How long a line may wait for others before it is written, and how much may wait. */
const FLUSH_AFTER_MS = 10;
const FLUSH_AT_CHARS = 16_384;

/**
 * pino's destination for the JSON format: lines are gathered and written together in one
 * synchronous write, at most `FLUSH_AFTER_MS` after the first of them (sooner once
 * `FLUSH_AT_CHARS` are waiting), and whatever is still held when the process exits is written
 * then. Synchronous, as pino's own default destination is: nothing is lost at exit, and a log
 * reader that stops reading slows the app down instead of growing its memory.
 *
 * Why gather: a busy server's request log is a line per request, and each write to a pipe is a
 * system call that also wakes the reader; gathered, a few hundred lines share one (one write per
 * event-loop turn still cost about 1.5 µs a request, measured on the hello route). Why not
 * `pino.destination({ sync: false })` (sonic-boom): its `write` measures the byte length of the
 * whole pending buffer on every call, about 5 µs a line in an in-process measurement. One per
 * process: every logger shares it, so lines keep their order.
 */
function stderrLines(): LineDestination {
  if (shared) return shared;
  let pending: string[] = [];
  let chars = 0;
  let timer: NodeJS.Timeout | undefined;
  const flushSync = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const data = pending.length === 1 ? pending[0]! : pending.join('');
    pending = [];
    chars = 0;
    writeAllSync(2, data);
  };
  process.on('exit', flushSync);
  shared = {
    write(line) {
      pending.push(line);
      chars += line.length;
      if (chars >= FLUSH_AT_CHARS) flushSync();
      // Unref'd: a timer must not keep a finished process alive; the exit handler writes the rest.
      else timer ??= setTimeout(flushSync, FLUSH_AFTER_MS).unref();
      return true;
    },
    flushSync,
  };
  return shared;
}

/** `writeSync` until all of `data` is out, waiting out `EAGAIN` on a non-blocking pipe. */
function writeAllSync(fd: number, data: string): void {
  let buffer = Buffer.from(data);
  while (buffer.length > 0) {
    try {
      buffer = buffer.subarray(writeSync(fd, buffer));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return; // stderr is gone: nowhere left to say so
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

/** An error as a text record shows it: name, message and its cause chain (at most 5 deep, as pino's errWithCause keeps causes). */
function errorFields(error: Error, depth = 0): Record<string, unknown> {
  const cause = error.cause;
  const fields: Record<string, unknown> = { name: error.name, message: error.message };
  if (cause === undefined || depth >= 5) return fields;
  fields.cause = cause instanceof Error ? errorFields(cause, depth + 1) : cause;
  return fields;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (v instanceof Error ? errorFields(v) : v));
  } catch {
    return '"[unserialisable]"';
  }
}
