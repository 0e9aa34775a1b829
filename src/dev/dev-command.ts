import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { CliIo } from "../cli/cli-io.js";
import { EXIT_CODES, type ExitCode } from "../cli/exit-codes.js";
import { helpFor } from "../cli/help-text.js";
import { CliError } from "../errors/cli-error.js";
import { escapeTerminalText } from "../render/escape-terminal-text.js";
import { startDevServer } from "./dev-server.js";
import { DEFAULT_DEV_DIR } from "./dev-workspace.js";

/** Options of {@link devCommand}. */
export interface DevCommandOptions {
  /** The arguments after `dev`. */
  args: readonly string[];
  io: CliIo;
}

/** What `agentloop dev` was asked for. */
export interface DevArgs {
  file: string | undefined;
  host: string;
  port: number;
  dir: string;
  memory: boolean;
  watch: boolean;
  help: boolean;
}

/** Parses the arguments of `agentloop dev` (usage errors are {@link CliError}s with exit code 2). */
export function parseDevArgs({ args }: { args: readonly string[] }): DevArgs {
  let parsed: ReturnType<typeof parse>;
  function parse() {
    return parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        port: { type: "string", short: "p" },
        host: { type: "string" },
        dir: { type: "string" },
        memory: { type: "boolean" },
        "no-watch": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  }
  try {
    parsed = parse();
  } catch (error) {
    throw CliError.usage(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw CliError.usage("agentloop dev takes one agent file");
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw CliError.usage(`--port must be a port number (0-65535), got "${values.port}"`);
  }
  return {
    file: positionals[0],
    host: values.host ?? "127.0.0.1",
    port,
    dir: values.dir ?? DEFAULT_DEV_DIR,
    memory: values.memory === true,
    watch: values["no-watch"] !== true,
    help: values.help === true,
  };
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

/**
 * `agentloop dev [agent-file]`: starts the local dev UI (see `agentloop dev --help`) and serves it until Ctrl-C.
 * Prints the page's URL (with its per-launch token) on stdout, the rest on stderr.
 */
export async function devCommand({ args, io }: DevCommandOptions): Promise<ExitCode> {
  const options = parseDevArgs({ args });
  if (options.help) {
    io.stdout.write(helpFor("dev") ?? "");
    return EXIT_CODES.ok;
  }
  if (options.file !== undefined && !existsSync(resolve(io.cwd, options.file))) {
    throw CliError.usage(`cannot read ${options.file}: no such file`);
  }
  const say = (text: string): void => {
    io.stderr.write(`agentloop dev: ${escapeTerminalText(text)}\n`);
  };
  const server = await startDevServer({
    cwd: io.cwd,
    host: options.host,
    port: options.port,
    dir: options.dir,
    memory: options.memory,
    watch: options.watch,
    ...(options.file !== undefined && { agentFile: options.file }),
    onReload: (state) =>
      say(
        state.error === undefined
          ? `reloaded ${options.file} (version ${state.version})`
          : `reload failed: ${state.error.message} (the last good agent stays)`,
      ),
  }).catch((error: unknown) => {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "EADDRINUSE")
      throw CliError.usage(`port ${options.port} is in use: choose another with --port`);
    throw error;
  });
  const { source, agentState } = server;
  const state = agentState();
  if (source.kind === "demo") say(source.notice);
  else if (state.error !== undefined)
    say(`the agent file did not load: ${state.error.message} (fix it: it reloads on save)`);
  else say(`agent from ${options.file}`);
  say(`sessions, runs and traces: ${server.workspace.where}`);
  if (!LOOPBACK.has(options.host)) {
    say(
      `listening on ${options.host}: other machines can reach this server (the token in the URL still guards it)`,
    );
  }
  io.stdout.write(`agentloop dev: open ${server.url}\n`);
  say("press Ctrl-C to stop");
  await new Promise<void>((done) => {
    const stop = io.onInterrupt(() => {
      stop();
      done();
    });
  });
  say("stopping");
  await server.close();
  return EXIT_CODES.ok;
}
