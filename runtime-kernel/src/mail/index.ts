/**
 * Mail for fw apps: `Mailer` (SMTP with implicit TLS or required STARTTLS, or the development
 * outbox), templated mail through the kernel templates, and background sends.
 */
export { Mailer, type MailHost, type MailCloseOptions, type Rendered } from './mailer.js';
export { resolveMailConfig, type MailConfig, type MailSettings, type MailSecurity } from './config.js';
export type {
  MailAddress,
  MailEnvelope,
  MailMessage,
  TemplateMailMessage,
  OutgoingMail,
  SentInfo,
} from './message.js';
