import { parseArgs } from "node:util";
import { CliError } from "../errors/cli-error.js";
import { formatArgs, truncateText } from "../render/format-values.js";
import type { Divergence } from "../trace/replay-model.js";
import { verifyTrace } from "../trace/verify-trace.js";
import { agentFromTrace, traceMeta } from "./agent-from-trace.js";
import type { CliIo } from "./cli-io.js";
import { EXIT_CODES, type ExitCode } from "./exit-codes.js";
import { helpFor } from "./help-text.js";
import { loadCliTrace } from "./load-cli-trace.js";
import { replayTrace } from "./replay-trace.js";

/** Options of {@link replayCommand}. */
export interface ReplayCommandOptions {
  /** The arguments after `replay`. */
  args: readonly string[];
  io: CliIo;
}

function parse(args: readonly string[]): { file: string | undefined; json: boolean; help: boolean } {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: { json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    });
    if (positionals.length > 1) throw CliError.usage("replay takes one trace file");
    return { file: positionals[0], json: values.json === true, help: values.help === true };
  } catch (error) {
    if (CliError.isInstance(error)) throw error;
    throw CliError.usage(error instanceof Error ? error.message : String(error));
  }
}

function show(value: unknown): string {
  return value === undefined ? "(nothing)" : truncateText({ text: formatArgs(value), maxChars: 400 });
}

function describeDivergence(divergence: Divergence): string {
  const where = divergence.path === "" ? "" : `, at ${divergence.path}`;
  return (
    `divergence at model call ${divergence.call}${where}\n` +
    `  expected: ${show(divergence.expected)}\n` +
    `  actual:   ${show(divergence.actual)}\n`
  );
}

/**
 * `agentloop replay <trace.jsonl>`: replays a recorded run offline (no model is called) with the agent
 * rebuilt from the trace, and prints "no divergence" (exit code 0) or the first divergence (exit code 1).
 */
export async function replayCommand({ args, io }: ReplayCommandOptions): Promise<ExitCode> {
  const options = parse(args);
  if (options.help) {
    io.stdout.write(helpFor("replay") ?? "");
    return EXIT_CODES.ok;
  }
  if (options.file === undefined) throw CliError.usage("missing trace file: agentloop replay <trace.jsonl>");
  const trace = await loadCliTrace({ file: options.file, cwd: io.cwd });
  const check = verifyTrace(trace);
  if (!check.ok) {
    throw new CliError({ message: `${options.file} is broken at record ${check.brokenAt}: ${check.reason}` });
  }
  const meta = traceMeta(trace);
  const recordedCalls = trace.records.filter((record) => record.kind === "model_request").length;
  const { result, divergence } = await replayTrace({ trace, agent: agentFromTrace({ trace, cwd: io.cwd }) });
  if (options.json) {
    io.stdout.write(
      `${JSON.stringify({
        file: options.file,
        model: meta.model,
        stopReason: result.stopReason,
        text: result.text,
        modelCalls: result.turns,
        divergence,
      })}\n`,
    );
  } else {
    const tools = meta.tools.length === 0 ? "no tools" : `tools ${meta.tools.join(", ")}`;
    io.stdout.write(
      `replaying ${options.file}: ${meta.model} · ${tools} · ${recordedCalls} recorded model ` +
        `${recordedCalls === 1 ? "call" : "calls"}\n` +
        `replayed: ${result.stopReason} · ${result.turns} model ${result.turns === 1 ? "call" : "calls"} · ` +
        `${result.toolCalls.length} tool ${result.toolCalls.length === 1 ? "call" : "calls"}\n`,
    );
    io.stdout.write(divergence === null ? "no divergence\n" : describeDivergence(divergence));
  }
  return divergence === null ? EXIT_CODES.ok : EXIT_CODES.failed;
}
