import { describe, expect, it } from 'vitest';
import { registerAdditive, unregisterAdditive, type CodemodResult } from '../../generators/src/codemods/index.js';
import { prng } from '../support/random.js';


/** A random but valid fluid/app.ts in one of the styles users write. */
function randomApp(rand: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const q = pick(["'", '"']);
  const semi = pick([';', '']);
  const lines = [
    ...(rand() < 0.5 ? ['// header comment', ''] : []),
    `import { Fluid } from ${q}@fw/kernel${q}${semi}`,
    ...(rand() < 0.5 ? [`import { helper } from ${q}./helper.js${q}${semi}`] : []),
    '',
    pick([
      `export const fluid = new Fluid({ root: new URL(${q}..${q}, import.meta.url) })${semi}`,
      `const fluid = new Fluid({\n    root: new URL(${q}..${q}, import.meta.url),\n})${semi}  // trailing`,
      `export const fluid = new Fluid({ root: ${q}.${q} }) as Fluid${semi}`,
    ]),
    ...(rand() < 0.5 ? [`fluid.app.get(${q}home${q}, ${q}/${q}, () => ${q}hi${q})${semi}`] : []),
    ...(rand() < 0.3 ? [`fluid.onStartup(async () => {})${semi}`] : []),
    `export default fluid${semi}`,
  ];
  const text = `${lines.join('\n')}${rand() < 0.8 ? '\n' : ''}`;
  return rand() < 0.25 ? text.replaceAll('\n', '\r\n') : text;
}

const isSubsequence = (small: string[], big: string[]): boolean => {
  let i = 0;
  for (const line of big) if (line === small[i]) i++;
  return i === small.length;
};
const lines = (t: string): string[] => t.split(/\r?\n/);

describe('codemods over random files and sequences', () => {
  it('are idempotent, only add lines, and unregister restores the original (120 seeds)', async () => {
    for (let seed = 1; seed <= 120; seed++) {
      const rand = prng(seed);
      const original = randomApp(rand);
      let text = original;
      const ops: Array<(t: string) => Promise<CodemodResult>> = [];
      const names = ['blog', 'shop', 'blog-posts', 'auth'].filter(() => rand() < 0.6);
      for (const n of names) ops.push((t) => registerAdditive({ path: 'fluid/app.ts', text: t }, n));
      for (const op of ops.sort(() => rand() - 0.5)) {
        const before = text;
        const first = await op(text);
        const second = await op(first.text);
        expect(second, `seed ${seed}: second run changes nothing`).toEqual({ changed: false, text: first.text });
        expect(isSubsequence(lines(before), lines(first.text)), `seed ${seed}: nothing removed or reprinted`).toBe(true);
        expect(first.text.includes('\r\n'), `seed ${seed}: line endings kept`).toBe(before.includes('\r\n'));
        text = first.text;
      }
      let undone = text;
      for (const n of names) undone = (await unregisterAdditive({ path: 'fluid/app.ts', text: undone }, n)).text;
      expect(undone, `seed ${seed}: unregistering every additive restores the file`).toBe(original);
      for (const n of names) expect(undone).not.toMatch(new RegExp(`additives/${n}/`));
    }
  });
});
