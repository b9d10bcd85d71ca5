/** What both broadcast servers send: `count` events named `tick`, each with a 64-character text. */

/** The payload of event number `n`. */
export const tickData = (n: number): { at: number; text: string } => ({ at: n, text: 'x'.repeat(64) });

/** Calls `each` with the match of every stdin line that matches `pattern`. */
export function onCommand(pattern: RegExp, each: (match: RegExpExecArray) => void): void {
  let buffered = '';
  process.stdin.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const m = pattern.exec(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      if (m) each(m);
    }
  });
}

/** Calls `each` for every `broadcast <count>` line on stdin. */
export function onBroadcast(each: (count: number) => void): void {
  onCommand(/^broadcast (\d+)$/, (m) => each(Number(m[1])));
}
