/**
 * Progress on stderr: on a terminal, one line rewritten in place (\r); otherwise (a log
 * file, a pipe, CI) one line per stage and the last state as a final line, instead of one
 * long line of \r updates.
 */
export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

export interface ProgressLine {
  /** The current state; `stage` changes when a new line should be printed off a terminal. */
  update(stage: string, text: string): void;
  /** Ends the progress: a newline on a terminal, the last state (if not printed) elsewhere. */
  end(): void;
}

export function progressLine(stream: ProgressStream = process.stderr): ProgressLine {
  const tty = stream.isTTY === true;
  let stage: string | undefined;
  let last: string | undefined;
  let printed = true;
  return {
    update(next, text) {
      if (tty) stream.write(`\r${text}`);
      else if (next !== stage) stream.write(`${text}\n`);
      printed = tty || next !== stage;
      stage = next;
      last = text;
    },
    end() {
      if (last === undefined) return;
      if (tty) stream.write('\n');
      else if (!printed) stream.write(`${last}\n`);
      last = undefined;
    },
  };
}
