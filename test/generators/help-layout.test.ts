/**
 * Every command's `--help` lays its options out as one table: in each block of option lines, the
 * descriptions start at one column (the shared `--install` / `--no-install` lines included).
 */
import { expect, test } from "vitest";
import { fw } from "./project-helpers.js";
import { tempDir } from "./helpers.js";

const COMMANDS = [
  ["create", "project"],
  ["create", "app"],
  ["create", "additive"],
  ["create", "auth"],
  ["destroy", "additive"],
  ["generate"],
  ["make"],
  ["migrate"],
  ["run"],
  ["dev"],
  ["start"],
  ["doctor"],
];

/** The column where each option line's description starts, per block of consecutive option lines. */
function optionColumns(help: string): number[][] {
  const blocks: number[][] = [];
  let current: number[] | undefined;
  for (const line of help.split("\n")) {
    const option =
      /^ {2}-\S.*?\S {2,}(?=\S)/.exec(line) ??
      /^ {2}--?[\w-]+ (?=[a-z])/.exec(line);
    if (option) {
      if (!current) blocks.push((current = []));
      current.push(option[0].length);
    } else if (!/^ {3,}\S/.test(line) && !/^ {2}-/.test(line))
      current = undefined; // continuation lines stay in the block
  }
  return blocks;
}

test.each(COMMANDS.map((argv) => ({ argv, shown: argv.join(" ") })))(
  "fw $shown --help: the options form one table",
  async ({ argv }) => {
    const { code, out } = await fw(await tempDir(), ...argv, "--help");
    expect(code).toBe(0);
    const blocks = optionColumns(out);
    expect(blocks.length, out).toBeGreaterThan(0);
    for (const columns of blocks) expect(new Set(columns).size, out).toBe(1);
  },
);
