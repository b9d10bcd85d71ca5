/**
 * The shapes of outgoing mail and of a send's result.
 */
import type { Readable } from 'node:stream';

/** A file attached to a message (the fields fw passes on to nodemailer). */
export interface MailAttachment {
  /** The file name shown to the recipient; `false` for none. */
  filename?: string | false;
  /** The contents: a string, a Buffer or a stream. */
  content?: string | Buffer | Readable;
  /** A file path or URL to read the contents from instead (streamed, for large files). */
  path?: string;
  /** How `content` is encoded when it is a string, e.g. `base64`. */
  encoding?: string;
  /** MIME type; derived from `filename` when unset. */
  contentType?: string;
  /** Content id for inline images (`<img src="cid:...">`). */
  cid?: string;
  /** `attachment` (default) or `inline`. */
  contentDisposition?: 'attachment' | 'inline';
  /** Extra headers of the attachment part. */
  headers?: Record<string, string>;
}

/** An address: `"a@example.com"`, `"Ann <a@example.com>"`, or `{ name, address }`. */
export type MailAddress = string | { name: string; address: string };

/** Fields every outgoing message has, whether its body is given or rendered. */
export interface MailEnvelope {
  /** Recipient(s). */
  to: MailAddress | MailAddress[];
  /** The subject line (plain text; one line). */
  subject: string;
  /** Sender; defaults to `MAIL_DEFAULT_SENDER`. */
  from?: MailAddress;
  /** Copy recipient(s), shown to every recipient. */
  cc?: MailAddress | MailAddress[];
  /** Blind copy recipient(s), not shown in the headers. */
  bcc?: MailAddress | MailAddress[];
  /** Where replies go (`Reply-To`), when not to the sender. */
  replyTo?: MailAddress | MailAddress[];
  /** Extra headers, e.g. `{ 'List-Unsubscribe': '<https://…>' }`. */
  headers?: Record<string, string>;
  /** Attached files. */
  attachments?: MailAttachment[];
}

/** A message whose body is given: `text`, `html`, or both (sent as multipart/alternative). */
export interface MailMessage extends MailEnvelope {
  /** The text/plain part. */
  text?: string;
  /** The text/html part. */
  html?: string;
}

/**
 * A message rendered from the kernel templates: `<template>.html` (autoescaped) becomes the HTML
 * part and `<template>.txt` (not escaped) the text part, both rendered with `data`.
 */
export interface TemplateMailMessage extends MailEnvelope {
  /** Template name without suffix, e.g. `mail/welcome`. */
  template: string;
  /** What the templates see. */
  data?: Record<string, unknown>;
}

/** Either kind of message, as `sendLater` takes it. */
export type OutgoingMail = MailMessage | TemplateMailMessage;

/** What a successful send reports. */
export interface SentInfo {
  /** The `Message-ID` header value, e.g. `<…@example.com>`. */
  messageId: string;
  /** Recipients the server (or the outbox) accepted. */
  accepted: string[];
  /** Recipients the server rejected (the send still succeeds when at least one was accepted). */
  rejected: string[];
  /** The server's final answer (SMTP only). */
  response?: string;
  /** The `.eml` file written (outbox only). */
  file?: string;
}

/** True for a message to be rendered from templates. */
export function isTemplateMail(mail: OutgoingMail): mail is TemplateMailMessage {
  return typeof (mail as Partial<TemplateMailMessage>).template === 'string';
}

/** The recipients of `mail` as one string, for log lines. */
export function recipients(mail: MailEnvelope): string {
  const list = (value: MailAddress | MailAddress[] | undefined): MailAddress[] =>
    value === undefined ? [] : Array.isArray(value) ? value : [value];
  return [...list(mail.to), ...list(mail.cc), ...list(mail.bcc)]
    .map((a) => (typeof a === 'string' ? a : a.address))
    .join(', ');
}
