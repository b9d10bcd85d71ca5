import type { ProjectConfig } from '@fw/schemas';
import type { FwAddAction } from '../api.js';
import { nameQuestion, type Builtin } from '../builtin.js';
import { invalidName, kebabCase, pascalCase, sentenceCase, tsString } from '../names.js';
import { plainText } from './page.js';

/** The values a mail's templates print: `name, orderId` → `name`, `orderId`. */
function fieldsOf(spec: string): string[] | string {
  const fields = spec.split(/[\s,]+/).filter(Boolean);
  const bad = fields.find((f) => !/^[a-z][A-Za-z0-9]*$/.test(f));
  if (bad) return `"${bad}" is not a field name: a lower-case letter, then letters and digits`;
  return [...new Set(fields)];
}

/**
 * The next step about the sender: the send function names no `from`, so the mailer uses
 * `MAIL_DEFAULT_SENDER`, and refuses a message when it is unset. When `fw.json` does not set it,
 * the line says exactly what to add.
 */
function senderStep(config: ProjectConfig): string {
  const sender = (config.config as Record<string, unknown>).MAIL_DEFAULT_SENDER;
  if (typeof sender === 'string' && sender !== '') return `It is sent from MAIL_DEFAULT_SENDER (${sender}, fw.json); npx fw docs mail`;
  return (
    'Next: set the sender: it is sent from MAIL_DEFAULT_SENDER, which fw.json does not set, and sending fails until it is set. ' +
    `Add "MAIL_DEFAULT_SENDER": ${JSON.stringify(`${config.name} <no-reply@localhost>`)} to "config" in fw.json ` +
    `(or set it in app_configs/<app>.ini or the environment); npx fw docs mail`
  );
}

/**
 * `fw make mail`: a templated message: `fluid/templates/mail/<name>.html` and `.txt`, and a typed
 * send function on the kernel's mailer (`fluid.mail.sendTemplate`, `@fw/kernel/mail`) in
 * `fluid/mail/<name>.ts`; `nodemailer` joins `package.json` when it is missing.
 */
export const mail: Builtin = {
  name: 'mail',
  description: 'a templated mail: HTML and text templates and a typed send function on fluid.mail',
  examples: ['npx fw make mail welcome', 'npx fw make mail order-shipped --subject "Your order is on its way" --fields "name,orderId"'],
  prompts: () => [
    nameQuestion('Mail name', invalidName),
    { type: 'input', name: 'subject', message: 'Subject', default: (a) => sentenceCase(String(a.name)), validate: plainText('subject') },
    {
      type: 'input',
      name: 'fields',
      message: 'Values the mail shows (comma-separated)',
      default: 'name',
      validate: (value) => (typeof fieldsOf(String(value)) === 'string' ? (fieldsOf(String(value)) as string) : true),
    },
  ],
  async actions(answers, fw) {
    const name = String(answers.name);
    const file = kebabCase(name);
    const subject = String(answers.subject);
    const fields = fieldsOf(String(answers.fields)) as string[];
    const templates = {
      subject,
      // A greeting by name when the mail has one; every other value in a list.
      greeting: fields.includes('name'),
      details: fields.filter((f) => f !== 'name').map((f) => ({ label: sentenceCase(f), value: `{{${f}}}` })),
    };
    const add = (path: string, blueprint: string, data: Record<string, unknown>): FwAddAction => ({ type: 'fw:add', path, blueprint, data });
    return [
      add(`fluid/templates/mail/${file}.html`, 'mail/mail.html.hbs', templates),
      add(`fluid/templates/mail/${file}.txt`, 'mail/mail.txt.hbs', templates),
      add(`fluid/mail/${file}.ts`, 'mail/mail.ts.hbs', {
        name,
        file,
        fields,
        subject: tsString(subject),
        type: `${pascalCase(name)}Mail`,
        send: `send${pascalCase(name)}Mail`,
      }),
      { type: 'fw:dependency', name: 'nodemailer' },
      senderStep(fw.config),
    ];
  },
};
