/**
 * The `Mailer`: sends mail over SMTP with the release's TLS rules, or writes it to the development
 * outbox; wraps every failure in `FrameworkException`; runs background sends and waits for them at
 * shutdown.
 */
import type { ConnectionOptions } from 'node:tls';
import type { SendMailOptions, SMTPSentMessageInfo, StreamSentMessageInfo, Transporter } from 'nodemailer';
import { FrameworkException, type Logger } from '../core/errors.js';
import { importOptional } from '../core/optional.js';
import { resolveMailConfig, type MailConfig, type MailSecurity, type MailSettings } from './config.js';
import { smtpFailure } from './errors.js';
import {
  isTemplateMail,
  recipients,
  type MailMessage,
  type OutgoingMail,
  type SentInfo,
  type TemplateMailMessage,
} from './message.js';
import { Outbox } from './outbox.js';
import { smtpOptions } from './transport.js';

/** What the mailer needs from the application; the kernel's `Fluid` provides it. */
export interface MailHost {
  /** The `MAIL_*` keys (the kernel's whole config object may be passed). */
  config: MailConfig;
  /** The framework logger: background failures, the outbox location and warnings go here. */
  logger: Logger;
  /**
   * The kernel templates' render function (`.html` autoescaped, `.txt` not), sync or async; the
   * result is turned into a string. Needed only for templated mail.
   */
  render?(template: string, data: Record<string, unknown>): Rendered | Promise<Rendered>;
  /** Project root: the default outbox is `<root>/var/outbox`. */
  root: string;
  /** Extra `tls.connect` options merged over the config's (e.g. `{ ca }` for a private CA). */
  tls?: ConnectionOptions;
}

/** What a render function returns: a string, or a `Markup` (anything with `toString()`). */
export type Rendered = string | { toString(): string };

/** Options of {@link Mailer.close}. */
export interface MailCloseOptions {
  /** How long to wait for sends in flight before abandoning them. Default 10 000 ms. */
  timeoutMs?: number;
}

interface InFlight {
  readonly to: string;
  readonly controller: AbortController;
  readonly done: Promise<SentInfo>;
  abandoned: boolean;
}

/**
 * Sends mail for the application. Construct it once at startup (a bad mail configuration, such as
 * both `MAIL_USE_TLS` and `MAIL_USE_STARTTLS`, throws `FrameworkException` here) and register
 * {@link Mailer.close} as a shutdown hook.
 *
 * Nothing depends on a request: send from handlers, startup hooks or jobs alike.
 */
export class Mailer {
  readonly #settings: MailSettings;
  readonly #host: MailHost;
  // nodemailer costs ~80 ms to import, so the transports are made on first use: an app that never
  // sends mail never loads it.
  // A load that failed (nodemailer not installed yet) is tried again at the next send, so
  // `npm install nodemailer` while the app runs is enough.
  #smtp: (() => Promise<Transporter<SMTPSentMessageInfo>>) | undefined;
  #stream: (() => Promise<Transporter<StreamSentMessageInfo>>) | undefined;
  readonly #outbox: Outbox;
  readonly #inFlight = new Set<InFlight>();
  #closing: Promise<void> | undefined;

  constructor(host: MailHost) {
    this.#host = host;
    this.#settings = resolveMailConfig(host.config, host.root);
    const s = this.#settings;
    this.#outbox = new Outbox(s.outboxDir);
    if (s.mode === 'outbox') {
      this.#stream = retrying(() =>
        loadNodemailer(host.root).then((m) => m.createTransport({ streamTransport: true, buffer: true, newline: 'windows' })),
      );
      if (host.config.DEBUG === false) {
        host.logger.warn(
          `mail: MAIL_SERVER is not set, and DEBUG is off: outgoing mail is written to ${s.outboxDir} as .eml files and reaches nobody; set MAIL_SERVER (npx fw docs mail)`,
          { outbox: s.outboxDir },
        );
      } else {
        host.logger.info(`mail: MAIL_SERVER is not set; outgoing mail is written to ${s.outboxDir} as .eml files`, { outbox: s.outboxDir });
      }
      return;
    }
    const options = smtpOptions(s, host.tls);
    this.#smtp = retrying(() => loadNodemailer(host.root).then((m) => m.createTransport(options)));
    if (s.security === 'plain' && s.password !== undefined) {
      host.logger.warn(
        `mail: MAIL_USE_TLS and MAIL_USE_STARTTLS are both false: the SMTP password and all mail travel in clear to ${s.address}`,
      );
    }
    if (s.security === 'tls' && s.port === 587) {
      host.logger.warn('mail: MAIL_USE_TLS=true with MAIL_PORT=587; port 587 normally speaks STARTTLS, implicit TLS uses 465');
    } else if (s.security === 'starttls' && s.port === 465) {
      host.logger.warn('mail: MAIL_USE_STARTTLS=true with MAIL_PORT=465; port 465 normally speaks implicit TLS (MAIL_USE_TLS)');
    }
  }

  /** Sends now and resolves when the server accepted the message (or the outbox file is written). */
  async send(message: MailMessage): Promise<SentInfo> {
    return this.#track(message, (signal) => this.#deliver(message, signal)).done;
  }

  /** Renders `<template>.html` and `<template>.txt` through the kernel templates, then sends. */
  async sendTemplate(message: TemplateMailMessage): Promise<SentInfo> {
    return this.#track(message, async (signal) => this.#deliver(await this.#render(message), signal)).done;
  }

  /**
   * Sends in the background (the reference's `fake_async=True`) and returns at once. A failure is
   * reported through `logger.error` with the recipients and the error; it never becomes an
   * unhandled rejection. {@link Mailer.close} waits for it. Throws `FrameworkException` at once
   * when the mailer is already closed.
   */
  sendLater(message: OutgoingMail): void {
    const job = this.#track(message, async (signal) =>
      this.#deliver(isTemplateMail(message) ? await this.#render(message) : message, signal),
    );
    job.done.then(
      (info) => this.#host.logger.debug('mail: background send delivered', { to: job.to, messageId: info.messageId }),
      (error: unknown) => {
        if (!job.abandoned) this.#host.logger.error('mail: background send failed', { to: job.to, error });
      },
    ).catch(() => undefined); // a throwing logger must not become an unhandled rejection
  }

  /** `smtp` when `MAIL_SERVER` is set, `outbox` otherwise. */
  get mode(): 'smtp' | 'outbox' {
    return this.#settings.mode;
  }

  /** `tls` (implicit), `starttls` (required) or `plain`. */
  get security(): MailSecurity {
    return this.#settings.security;
  }

  /** The SMTP server as `host:port`. */
  get address(): string {
    return this.#settings.address;
  }

  /** The absolute outbox folder (used when `mode` is `outbox`). */
  get outboxDir(): string {
    return this.#settings.outboxDir;
  }

  /** Sends (and background sends) not finished yet. */
  get pending(): number {
    return this.#inFlight.size;
  }

  /**
   * Connects and logs in (SMTP) or creates the outbox folder, without sending; throws
   * `FrameworkException` like a send would. Useful as a startup check.
   */
  async verify(): Promise<void> {
    if (this.#smtp === undefined) {
      await this.#outbox.ensure().catch((err: unknown) => {
        throw this.#outboxFailure(err);
      });
      return;
    }
    const transport = await this.#smtp(); // a missing nodemailer fails here, with its own message
    try {
      await transport.verify();
    } catch (err) {
      throw smtpFailure(err, this.#settings);
    }
  }

  /**
   * Stops taking mail, waits up to `timeoutMs` for the sends in flight, then aborts the rest and
   * logs each abandoned recipient list. Idempotent; the kernel registers it as a shutdown hook.
   */
  close(options: MailCloseOptions = {}): Promise<void> {
    this.#closing ??= this.#shutdown(options.timeoutMs ?? 10_000);
    return this.#closing;
  }

  async #shutdown(timeoutMs: number): Promise<void> {
    if (this.#inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const finished = Promise.allSettled([...this.#inFlight].map((j) => j.done)).then(() => true);
      const expired = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const allDone = await Promise.race([finished, expired]);
      clearTimeout(timer);
      if (!allDone) {
        const left = [...this.#inFlight];
        this.#host.logger.error(`mail: shutdown abandoned ${left.length} send(s) still in flight after ${timeoutMs} ms`, {
          recipients: left.map((j) => j.to),
        });
        for (const job of left) {
          job.abandoned = true;
          job.controller.abort();
        }
      }
    }
    (await this.#smtp?.().catch(() => undefined))?.close();
    (await this.#stream?.().catch(() => undefined))?.close();
  }

  #track(message: OutgoingMail, run: (signal: AbortSignal) => Promise<SentInfo>): InFlight {
    if (this.#closing !== undefined) {
      throw new FrameworkException(`Mail: the mailer is closed (shutting down); not sending to ${recipients(message)}`);
    }
    const controller = new AbortController();
    const done = run(controller.signal);
    const job = { to: recipients(message), controller, done, abandoned: false };
    this.#inFlight.add(job);
    const forget = () => this.#inFlight.delete(job);
    done.then(forget, forget);
    return job;
  }

  async #render(message: TemplateMailMessage): Promise<MailMessage> {
    const render = this.#host.render;
    if (render === undefined) {
      throw new FrameworkException(
        `Mail: template "${message.template}" cannot be rendered: this mailer was built without the kernel templates (MailHost.render)`,
      );
    }
    const { template, data = {}, ...envelope } = message;
    const part = async (suffix: string): Promise<string> => {
      const name = `${template}.${suffix}`;
      try {
        return String(await render.call(this.#host, name, data));
      } catch (err) {
        throw new FrameworkException(`Mail: rendering template "${name}" failed: ${errorMessage(err)}`, { cause: err });
      }
    };
    const [html, text] = await Promise.all([part('html'), part('txt')]);
    return { ...envelope, html, text };
  }

  async #deliver(message: MailMessage, signal: AbortSignal): Promise<SentInfo> {
    const from = message.from ?? this.#settings.defaultSender;
    if (from === undefined) {
      throw new FrameworkException(
        `Mail: no sender for the message to ${recipients(message)}: pass "from" or set MAIL_DEFAULT_SENDER`,
      );
    }
    const options: SendMailOptions = { ...message, from, signal };
    if (this.#smtp !== undefined) {
      const transport = await this.#smtp(); // a missing nodemailer fails here, with its own message
      try {
        const info = await transport.sendMail(options);
        return { messageId: info.messageId, accepted: addresses(info.accepted), rejected: addresses(info.rejected), response: info.response };
      } catch (err) {
        throw smtpFailure(err, this.#settings);
      }
    }
    const stream = await this.#stream!();
    const info = await stream.sendMail(options).catch((err: unknown) => {
      throw new FrameworkException(`Mail: composing the message to ${recipients(message)} failed: ${errorMessage(err)}`, {
        cause: err,
      });
    });
    const file = await this.#outbox.write(info.messageId, info.message as Buffer).catch((err: unknown) => {
      throw this.#outboxFailure(err);
    });
    this.#host.logger.info(`mail: wrote ${file}`, { to: recipients(message), file });
    return { messageId: info.messageId, accepted: info.envelope.to, rejected: [], file };
  }

  #outboxFailure(err: unknown): FrameworkException {
    const dir = this.#settings.outboxDir;
    return new FrameworkException(`Mail: cannot write to the outbox ${dir} (MAIL_OUTBOX_DIR): ${errorMessage(err)}`, {
      cause: err,
    });
  }
}

function addresses(list: ReadonlyArray<string | { address?: string | undefined }> | undefined): string[] {
  return (list ?? []).map((a) => (typeof a === 'string' ? a : (a.address ?? '')));
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Starts `load` now and returns its result on every call; once it has failed, the next call
 * starts it again. The first failure surfaces at the first send, never as an unhandled rejection.
 */
function retrying<T>(load: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | undefined;
  const get = (): Promise<T> => {
    if (current === undefined) {
      const attempt = load();
      current = attempt;
      attempt.catch(() => {
        if (current === attempt) current = undefined;
      });
    }
    return current;
  };
  get();
  return get;
}

/** nodemailer, imported on first use from the app's root (an optional package of the kernel). */
function loadNodemailer(root: string): Promise<typeof import('nodemailer')> {
  return importOptional<typeof import('nodemailer')>('nodemailer', { root, feature: 'mail (fluid.mail, the MAIL_* keys)' });
}
