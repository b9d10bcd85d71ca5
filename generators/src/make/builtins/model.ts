import { prepareBlueprint, blueprintTemplate } from '../../render/blueprint.js';
import { configuredBinds } from '../../project/config.js';
import type { BuiltinEnv } from '../builtin.js';
import { nameQuestion, type Builtin } from '../builtin.js';
import { MakeError } from '../errors.js';
import { pascalCase, words } from '../names.js';

/** Prisma's scalar types, by the names `--fields` accepts (`string` or `String`). */
const SCALARS = new Map(['String', 'Int', 'BigInt', 'Float', 'Decimal', 'Boolean', 'DateTime', 'Json', 'Bytes'].map((t) => [t.toLowerCase(), t]));

/** One field of `--fields`: `title:String`, `body:string?`, `tags:String[]`. */
interface Field {
  name: string;
  type: string;
}

/** Fields every model gets: a numeric id and its timestamps. */
const OWN = ['id', 'createdAt', 'updatedAt'];

/** Parses `--fields` ("title:String body:String? views:Int"); returns the fields or the reason they are not usable. */
function parseFields(spec: string): Field[] | string {
  const out: Field[] = [];
  for (const item of spec.split(/[\s,]+/).filter(Boolean)) {
    const match = /^([a-z][A-Za-z0-9_]*):([A-Za-z]+)(\?|\[\])?$/.exec(item);
    const type = match ? SCALARS.get(match[2]!.toLowerCase()) : undefined;
    if (!match || !type) return `"${item}" is not name:Type with a Prisma scalar type (${[...SCALARS.values()].join(', ')}), optionally followed by ? or []`;
    if (OWN.includes(match[1]!) || out.some((f) => f.name === match[1])) return `field "${match[1]}" is given twice (every model has id, createdAt and updatedAt)`;
    out.push({ name: match[1]!, type: `${type}${match[3] ?? ''}` });
  }
  return out;
}

/** The rows of a model, aligned in columns as `prisma format` writes them. */
function rows(fields: readonly Field[]): string[] {
  const all: Array<[string, string, string]> = [
    ['id', 'Int', '@id @default(autoincrement())'],
    ...fields.map((f): [string, string, string] => [f.name, f.type, '']),
    ['createdAt', 'DateTime', '@default(now())'],
    ['updatedAt', 'DateTime', '@updatedAt'],
  ];
  const nameWidth = Math.max(...all.map(([n]) => n.length)) + 1;
  const typeWidth = Math.max(...all.map(([, t]) => t.length)) + 1;
  return all.map(([n, t, a]) => `${n.padEnd(nameWidth)}${a ? `${t.padEnd(typeWidth)}${a}` : t}`);
}

/**
 * The binds, in order: those of fw.json's `DATABASE_BINDS` (else the schema default), or, when
 * fw.json names a `DATABASE_BINDS_FILE`, that file's (read when the question is, as `fw migrate`
 * and the kernel read it).
 */
function binds(env: BuiltinEnv): string[] | (() => Promise<string[]>) {
  const values = env.loaded.config.config as Record<string, unknown>;
  if (typeof values.DATABASE_BINDS_FILE === 'string' && values.DATABASE_BINDS_FILE !== '') {
    let read: Promise<string[]> | undefined;
    return () => (read ??= configuredBinds(env.loaded, env.root).then(({ binds }) => Object.keys(binds)));
  }
  const configured = values.DATABASE_BINDS ?? env.loaded.defaults.DATABASE_BINDS;
  return Object.keys((configured ?? {}) as Record<string, unknown>);
}

/** The migration name `fw make model` suggests: `Post` → `add_post`. */
const migrationName = (model: string): string => `add_${words(model).join('_')}`;

/**
 * `fw make model`: a Prisma model at the end of the bind's `schema.prisma` (written by `fw migrate
 * init`), with an id and timestamps; then the migration to create (offered on a terminal).
 */
export const model: Builtin = {
  name: 'model',
  description: "a Prisma model in a bind's prisma/<bind>/schema.prisma (after fw migrate init)",
  examples: ['npx fw make model Post --fields "title:String body:String? published:Boolean"', 'npx fw make model AuditEntry --bind audit'],
  prompts: (env) => {
    const names = binds(env);
    return [
      nameQuestion('Model name', (n) => (/^[A-Za-z][A-Za-z0-9_ -]*$/.test(n) ? undefined : `"${n}" is not a usable model name: letters and digits, starting with a letter`)),
      typeof names === 'function'
        ? { type: 'list', name: 'bind', message: 'Database bind (of DATABASE_BINDS_FILE)', choices: names, default: async () => (await names())[0], when: async () => (await names()).length > 1, fromProject: true }
        : { type: 'list', name: 'bind', message: 'Database bind', choices: names, default: names[0], when: () => names.length > 1 },
      {
        type: 'input',
        name: 'fields',
        message: 'Fields (name:Type ..., e.g. title:String body:String?)',
        default: '',
        validate: (value) => (typeof parseFields(String(value)) === 'string' ? (parseFields(String(value)) as string) : true),
      },
    ];
  },
  async actions(answers, fw) {
    const name = pascalCase(String(answers.name));
    const bind = String(answers.bind);
    const schema = `prisma/${bind}/schema.prisma`;
    const text = await fw.read(schema);
    if (text === undefined) throw new MakeError(`fw make model: ${schema} does not exist: run "npx fw migrate init" first (it writes the Prisma environment of every bind)`);
    const line = text.split('\n').findIndex((l) => new RegExp(`^\\s*model\\s+${name}\\s*\\{`).test(l));
    if (line >= 0) throw new MakeError(`fw make model: model ${name} already exists in ${schema}:${line + 1}`);
    const fields = parseFields(String(answers.fields ?? ''));
    if (typeof fields === 'string') throw new MakeError(`fw make model: --fields: ${fields}`);
    await prepareBlueprint('make', ['model/model.prisma.hbs']);
    const block = blueprintTemplate('make', 'model/model.prisma.hbs')({ name, rows: rows(fields), comment: `${name}: written by fw make model; yours to edit.` });
    const migrate = `npx fw migrate dev --bind ${bind} --name ${migrationName(name)}`;
    return [
      async () => {
        await fw.write(schema, `${text.replace(/\n*$/, '\n')}${block}`);
        return '';
      },
      `Next: create its migration with ${migrate}`,
    ];
  },
  async after(answers, io) {
    const { promptSession } = await import('../../cli/prompts.js');
    const { clack, streams, answer } = await promptSession(io);
    const bind = String(answers.bind);
    const name = migrationName(pascalCase(String(answers.name)));
    const now = answer(await clack.confirm({ ...streams, message: `Create the migration "${name}" now (fw migrate dev)?`, initialValue: true }));
    if (!now) return;
    const { run } = await import('../../commands/index.js');
    await run(['migrate', 'dev', '--bind', bind, '--name', name], io);
  },
};
