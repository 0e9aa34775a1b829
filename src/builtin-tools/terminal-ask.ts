import { createInterface, type Interface } from "node:readline/promises";
import type { Readable, Writable } from "node:stream";
import { AbortError } from "../errors/abort-error.js";
import type { AskCallback } from "./ask-user-tool.js";

/** Options of {@link terminalAsk}. */
export interface TerminalAskOptions {
  /** Where answers are read from, one per line. Default `process.stdin`. */
  input?: Readable;
  /** Where questions are written. Default `process.stdout`. */
  output?: Writable;
}

interface Waiter {
  resolve: (line: string) => void;
  reject: (error: unknown) => void;
}

/**
 * Returns an {@link AskCallback} for `askUserTool` that writes the question to `output` followed by a `> `
 * prompt and reads one line of `input` as the answer, using `node:readline/promises`. Works with a terminal
 * and with piped input: lines that arrive before they are asked for are kept for the next questions. Between
 * questions the input is paused, so it does not keep the process alive. The line is read in the terminal's
 * normal (cooked) mode, so Ctrl+C still interrupts the process. An abort of `ctx.signal` rejects with
 * `AbortError`; when the input ends before an answer, the question rejects with an error saying so.
 *
 * @example
 * const ask = askUserTool({ ask: terminalAsk() });
 */
export function terminalAsk(options: TerminalAskOptions = {}): AskCallback {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const lines: string[] = [];
  const waiters: Waiter[] = [];
  let closed = false;
  let reader: Interface | undefined;

  const open = (): Interface => {
    if (reader !== undefined) return reader;
    const created = createInterface({ input, output, terminal: false });
    created.on("line", (line) => {
      const waiter = waiters.shift();
      if (waiter === undefined) lines.push(line);
      else waiter.resolve(line);
      if (waiters.length === 0) created.pause();
    });
    created.on("close", () => {
      closed = true;
      for (const waiter of waiters.splice(0))
        waiter.reject(new Error("The input ended before the user answered"));
    });
    reader = created;
    return created;
  };

  return (question, ctx) => {
    const { signal } = ctx;
    if (signal.aborted) return Promise.reject(new AbortError({ cause: signal.reason }));
    const rl = open();
    rl.setPrompt(`${question}\n> `);
    rl.prompt();
    const queued = lines.shift();
    if (queued !== undefined || closed) {
      rl.pause();
      if (queued !== undefined) return Promise.resolve(queued);
      return Promise.reject(new Error("The input ended before the user answered"));
    }
    return new Promise<string>((resolve, reject) => {
      const onAbort = (): void => {
        const index = waiters.indexOf(waiter);
        if (index !== -1) waiters.splice(index, 1);
        if (waiters.length === 0) rl.pause();
        reject(new AbortError({ cause: signal.reason }));
      };
      const waiter: Waiter = {
        resolve: (line) => {
          signal.removeEventListener("abort", onAbort);
          resolve(line);
        },
        reject: (error) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      waiters.push(waiter);
      signal.addEventListener("abort", onAbort, { once: true });
      rl.resume();
    });
  };
}
