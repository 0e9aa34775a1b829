import { parseArgs } from "node:util";
import { CliError } from "../errors/cli-error.js";
import { createAnsiStyle, shouldUseColor } from "../render/ansi-style.js";
import { verifyTrace } from "../trace/verify-trace.js";
import type { CliIo } from "./cli-io.js";
import { EXIT_CODES, type ExitCode } from "./exit-codes.js";
import { formatTraceTimeline } from "./format-trace-timeline.js";
import { helpFor } from "./help-text.js";
import { loadCliTrace } from "./load-cli-trace.js";

/** Options of {@link traceCommand}. */
export interface TraceCommandOptions {
  /** The arguments after `trace`. */
  args: readonly string[];
  io: CliIo;
}

function parse(args: readonly string[]): {
  positionals: string[];
  help: boolean;
  color: boolean | undefined;
} {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: { help: { type: "boolean", short: "h" }, "no-color": { type: "boolean" } },
    });
    return {
      positionals,
      help: values.help === true,
      color: values["no-color"] === true ? false : undefined,
    };
  } catch (error) {
    throw CliError.usage(error instanceof Error ? error.message : String(error));
  }
}

/**
 * `agentloop trace show <trace.jsonl>`: prints a recorded run as a timeline, then `verified: ok` (exit code 0)
 * or the first broken record of the hash chain (exit code 1).
 */
export async function traceCommand({ args, io }: TraceCommandOptions): Promise<ExitCode> {
  const { positionals, help, color } = parse(args);
  if (help) {
    io.stdout.write(helpFor("trace") ?? "");
    return EXIT_CODES.ok;
  }
  const [subcommand, file, ...extra] = positionals;
  if (subcommand === undefined)
    throw CliError.usage("missing subcommand: agentloop trace show <trace.jsonl>");
  if (subcommand !== "show") {
    throw CliError.usage(`unknown trace subcommand "${subcommand}" (expected: show)`);
  }
  if (file === undefined) throw CliError.usage("missing trace file: agentloop trace show <trace.jsonl>");
  if (extra.length > 0) throw CliError.usage("trace show takes one trace file");
  const trace = await loadCliTrace({ file, cwd: io.cwd });
  const style = createAnsiStyle({ enabled: color ?? shouldUseColor({ stream: io.stdout, env: io.env }) });
  io.stdout.write(`${style.bold(`trace ${file}`)} · ${trace.records.length} records\n`);
  for (const text of formatTraceTimeline({ trace, style })) io.stdout.write(`${text}\n`);
  const check = verifyTrace(trace);
  if (check.ok) {
    io.stdout.write(`${style.green("verified: ok")}\n`);
    return EXIT_CODES.ok;
  }
  io.stdout.write(`${style.red(`verified: broken at record ${check.brokenAt}: ${check.reason}`)}\n`);
  return EXIT_CODES.failed;
}
