/** A writable text stream as the CLI uses it. */
export interface CliWritable {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** What a command reads and writes: the process's streams, environment and signals, or test doubles. */
export interface CliIo {
  stdout: CliWritable;
  stderr: CliWritable;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  /** The working directory (file tools' root, the default store directory, relative paths). */
  cwd: string;
  /** Subscribes to Ctrl-C (SIGINT); returns the function that unsubscribes. */
  onInterrupt(listener: () => void): () => void;
  /** Ends the process at once with `code` (a second Ctrl-C). */
  exit(code: number): void;
}

/** The {@link CliIo} of the running process. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    onInterrupt(listener) {
      process.on("SIGINT", listener);
      return () => {
        process.off("SIGINT", listener);
      };
    },
    exit(code) {
      process.exit(code);
    },
  };
}
