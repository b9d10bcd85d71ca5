/**
 * Thrown when a codemod cannot find where its edit belongs (e.g. the `new Fluid(...)` variable).
 * Nothing has been changed; `message` is the exact edit to make by hand.
 */
export class CodemodAnchorError extends Error {
  /** Project-relative path of the file that was not edited. */
  readonly file: string;
  /** The manual instruction, same as the message. */
  readonly instruction: string;

  constructor(file: string, instruction: string) {
    super(instruction);
    this.name = 'CodemodAnchorError';
    this.file = file;
    this.instruction = instruction;
  }
}
