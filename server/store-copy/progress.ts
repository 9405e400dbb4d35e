/**
 * Progress of a copy, on stderr: a bar per kind redrawn in place on a terminal, plain lines
 * otherwise (a log, a pipe, a test). Thirty lines are cheaper than a dependency.
 */
export interface Progress {
  /** A kind starts: `total` documents to copy (the source's count). */
  start(kind: string, total: number): void;
  /** `done` of the kind's documents are read and written so far. */
  advance(kind: string, done: number): void;
  /** The kind is done: `added` were new on the target; `note` says why it was skipped, if it was. */
  finish(kind: string, done: number, added: number, note?: string): void;
  /** A line of its own (a check passed, a refusal). */
  say(line: string): void;
}

const WIDTH = 30;
/** A terminal redraws at most this often (ms): the bar must not cost the copy. */
const REDRAW_MS = 100;

export function createProgress(stream: { write(s: string): unknown; isTTY?: boolean }): Progress {
  const tty = !!stream.isTTY;
  let total = 0;
  let last = 0;
  const bar = (kind: string, done: number) => {
    const f = total === 0 ? 1 : Math.min(1, done / total);
    const fill = Math.round(f * WIDTH);
    return `\r${kind.padEnd(28)} [${"#".repeat(fill)}${"-".repeat(WIDTH - fill)}] ${done}/${total}\x1b[K`;
  };
  return {
    start(kind, n) {
      total = n;
      last = 0;
      if (tty) stream.write(bar(kind, 0));
      else stream.write(`copying ${kind}: ${n} documents\n`);
    },
    advance(kind, done) {
      const now = Date.now();
      if (tty && now - last >= REDRAW_MS) {
        last = now;
        stream.write(bar(kind, done));
      } else if (!tty && done % 10_000 === 0) stream.write(`  ${kind}: ${done}/${total}\n`);
    },
    finish(kind, done, added, note) {
      const tail = note ?? `${done} read, ${added} added`;
      if (tty) stream.write(`${bar(kind, note ? total : done)} ${tail}\n`);
      else stream.write(`copied ${kind}: ${tail}\n`);
    },
    say(line) {
      stream.write(`${line}\n`);
    },
  };
}
