import type { FwAddAction, MakeApi } from '../api.js';
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
 * `MAIL_DEFAULT_SENDER`, and refuses a message when it is unset. Read as the app reads it on this
 * machine (`fw.json`, `app_configs/<app>.ini`, `.env`, the environment: {@link MakeApi.setting}),
 * the line says where it is set, or, when nothing sets it, exactly what to add. When the app's
 * config cannot be read (no `npm install` yet, a bad value), `fw.json` is read alone and the line
 * says why.
 */
async function senderStep(fw: MakeApi): Promise<string> {
  const config = fw.config;
  let sender: unknown;
  let from = 'fw.json';
  let unread = '';
  try {
    const setting = await fw.setting('MAIL_DEFAULT_SENDER');
    sender = setting?.value;
    if (setting) from = setting.from;
  } catch (error) {
    sender = (config.config as Record<string, unknown>).MAIL_DEFAULT_SENDER;
    unread = ` (fw read fw.json only: the app's config could not be read: ${error instanceof Error ? error.message : String(error)})`;
  }
  if (typeof sender === 'string' && sender !== '') return `It is sent from MAIL_DEFAULT_SENDER (${sender}, set in ${from})${unread}; npx fw docs mail`;
  const where = unread === '' ? 'which the app does not set (in fw.json, app_configs/<app>.ini, .env or the environment)' : `which fw.json does not set${unread}`;
  return (
    `Next: set the sender: it is sent from MAIL_DEFAULT_SENDER, ${where}, and sending fails until it is set. ` +
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
      await senderStep(fw),
    ];
  },
};
