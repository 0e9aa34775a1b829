#!/usr/bin/env node
/**
 * The `agentloop` command. This entry only parses the command and loads the command's module on demand, so
 * `agentloop --help` and `--version` start fast and importing this file never fails for lack of a key or a
 * model.
 */
import { readFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CliError } from "../errors/cli-error.js";
import { type CliIo, processIo } from "./cli-io.js";
import { EXIT_CODES } from "./exit-codes.js";
import { helpFor, MAIN_HELP } from "./help-text.js";

/** Options of {@link main}. */
export interface MainOptions {
  /** The arguments after the program name (`process.argv.slice(2)`). */
  argv: readonly string[];
  io: CliIo;
}

/** The package version, read from package.json next to dist/ (or src/); "unknown" when it cannot be read. */
function version(): string {
  try {
    const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
    const { version } = JSON.parse(text) as { version?: unknown };
    return typeof version === "string" ? version : "unknown";
  } catch {
    return "unknown";
  }
}

const wantsHelp = (args: readonly string[]): boolean => {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
};

/** Runs one command and resolves with its exit code. */
async function dispatch({ argv, io }: MainOptions): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    io.stderr.write(MAIN_HELP);
    return EXIT_CODES.usage;
  }
  if (command === "--help" || command === "-h") {
    io.stdout.write(MAIN_HELP);
    return EXIT_CODES.ok;
  }
  if (command === "--version" || command === "-v") {
    io.stdout.write(`${version()}\n`);
    return EXIT_CODES.ok;
  }
  if (command === "help") {
    const text = helpFor(rest[0]);
    if (text === undefined) throw CliError.usage(`unknown command "${rest[0]}" (see agentloop --help)`);
    io.stdout.write(text);
    return EXIT_CODES.ok;
  }
  const help = helpFor(command);
  if (help === undefined || command.startsWith("-")) {
    throw CliError.usage(
      command.startsWith("-")
        ? `unknown option "${command}" (see agentloop --help)`
        : `unknown command "${command}" (see agentloop --help)`,
    );
  }
  if (wantsHelp(rest)) {
    io.stdout.write(help);
    return EXIT_CODES.ok;
  }
  switch (command) {
    case "run": {
      const { runCommand } = await import("./run-command.js");
      return runCommand({ args: rest, io });
    }
    case "replay": {
      const { replayCommand } = await import("./replay-command.js");
      return replayCommand({ args: rest, io });
    }
    case "dev": {
      const { devCommand } = await import("../dev/dev-command.js");
      return devCommand({ args: rest, io });
    }
    default: {
      const { traceCommand } = await import("./trace-command.js");
      return traceCommand({ args: rest, io });
    }
  }
}

/** The one line an error is reported with. */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, " ");
}

/**
 * Runs the `agentloop` command line and resolves with the exit code (it does not exit). Errors are reported as
 * one line on stderr, `agentloop: error: <message>`, with exit code 2 for usage errors, 3 for configuration
 * errors and 1 otherwise.
 */
export async function main(options: MainOptions): Promise<number> {
  try {
    return await dispatch(options);
  } catch (error) {
    options.io.stderr.write(`agentloop: error: ${describe(error)}\n`);
    return CliError.isInstance(error) ? error.exitCode : EXIT_CODES.failed;
  }
}

/** Waits until `stream` has flushed what was written to it. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.writableLength === 0) resolve();
    else stream.write("", () => resolve());
  });
}

/** Whether this module is the program being run (not imported, e.g. by a test). */
function isEntry(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) {
  // A reader that goes away (`agentloop ... | head`) is not an error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(EXIT_CODES.ok);
      throw error;
    });
  }
  const code = await main({ argv: process.argv.slice(2), io: processIo() });
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}
