/** Options of {@link LineReader}. */
export interface LineReaderOptions {
  /** The stream to read lines from (e.g. `process.stdin`). */
  input: NodeJS.ReadableStream;
}

/** Options of {@link LineReader.readLine}. */
export interface ReadLineOptions {
  /** Stops waiting: the pending read resolves with `undefined`. */
  signal?: AbortSignal;
}

/**
 * Reads lines from a stream on demand, for prompts: lines that arrive before they are asked for are kept (so
 * piped answers like `printf 'y\nn\n' | agentloop ...` work), and the stream is only read from the first
 * `readLine` on. At the end of the stream every read resolves with `undefined`.
 */
export class LineReader {
  private readonly input: NodeJS.ReadableStream;
  private readonly lines: string[] = [];
  private readonly waiting: Array<(line: string | undefined) => void> = [];
  private buffer = "";
  private started = false;
  private ended = false;
  private readonly onData = (chunk: string | Buffer): void => {
    this.buffer += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    let newline = this.buffer.indexOf("\n");
    while (newline >= 0) {
      this.push(this.buffer.slice(0, newline).replace(/\r$/, ""));
      this.buffer = this.buffer.slice(newline + 1);
      newline = this.buffer.indexOf("\n");
    }
  };
  private readonly onEnd = (): void => {
    if (this.buffer !== "") this.push(this.buffer);
    this.buffer = "";
    this.ended = true;
    for (const resolve of this.waiting.splice(0)) resolve(undefined);
  };

  constructor({ input }: LineReaderOptions) {
    this.input = input;
  }

  /** The next line (without its line break), or `undefined` at the end of the input or when aborted. */
  readLine({ signal }: ReadLineOptions = {}): Promise<string | undefined> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.ended || signal?.aborted) return Promise.resolve(undefined);
    this.start();
    return new Promise((resolve) => {
      const done = (value: string | undefined): void => {
        signal?.removeEventListener("abort", onAbort);
        resolve(value);
      };
      const onAbort = (): void => {
        const index = this.waiting.indexOf(done);
        if (index >= 0) this.waiting.splice(index, 1);
        done(undefined);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(done);
    });
  }

  /** Stops reading the stream (it no longer keeps the process alive). Pending reads resolve with `undefined`. */
  close(): void {
    if (this.started) {
      this.input.off("data", this.onData);
      this.input.off("end", this.onEnd);
      this.input.off("error", this.onEnd);
      this.input.pause();
    }
    this.ended = true;
    for (const resolve of this.waiting.splice(0)) resolve(undefined);
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.input.on("data", this.onData);
    this.input.once("end", this.onEnd);
    this.input.once("error", this.onEnd);
    this.input.resume();
  }

  private push(line: string): void {
    const resolve = this.waiting.shift();
    if (resolve === undefined) this.lines.push(line);
    else resolve(line);
  }
}
