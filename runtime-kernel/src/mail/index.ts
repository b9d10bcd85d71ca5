/**
 * `@fw/kernel/mail`: `Mailer` (SMTP with implicit TLS or required STARTTLS, or the development
 * outbox), templated mail through the kernel templates, background sends, and the plugin that
 * gives the app `fluid.mail`. See `@fw/kernel/docs/mail.md`.
 */
export { mail } from './plugin.js';
export { Mailer, type MailHost, type MailCloseOptions, type Rendered } from './mailer.js';
export { resolveMailConfig, type MailConfig, type MailSettings, type MailSecurity } from './config.js';
export type {
  MailAddress,
  MailAttachment,
  MailEnvelope,
  MailMessage,
  TemplateMailMessage,
  OutgoingMail,
  SentInfo,
} from './message.js';
