import { resolve } from "node:path";
import { Agent } from "../agent.js";
import { CostMeter } from "../cost/cost-meter.js";
import { CliError } from "../errors/cli-error.js";
import { ModelCallError } from "../errors/model-call-error.js";
import type { AgentResult } from "../loop/agent-result.js";
import { escapeJsonForTerminal, escapeTerminalText } from "../render/escape-terminal-text.js";
import { FileStore } from "../stores/file-store.js";
import { createRedactor } from "../stores/redactor.js";
import type { JsonValue } from "../stores/session-store.js";
import { saveTrace } from "../trace/trace-file.js";
import { askApprovals } from "./ask-approvals.js";
import { buildCliTools } from "./build-cli-tools.js";
import type { CliIo } from "./cli-io.js";
import { createRunView, type RunView } from "./create-run-view.js";
import { EXIT_CODES, type ExitCode } from "./exit-codes.js";
import { helpFor } from "./help-text.js";
import { LineReader } from "./line-reader.js";
import { parseRunArgs, type RunArgs } from "./parse-run-args.js";
import { chooseCliModel, resolveCliModel } from "./resolve-cli-model.js";
import { summarizeRun } from "./summarize-run.js";

/** Options of {@link runCommand}. */
export interface RunCommandOptions {
  /** The arguments after `run`. */
  args: readonly string[];
  io: CliIo;
}

/** What to suggest when a limit stopped the run. */
const LIMIT_HINTS: Partial<Record<string, string>> = {
  max_turns: "the model-call limit was reached (raise it with --max-turns)",
  cost_limit: "the cost limit was reached (raise it with --max-cost)",
  timeout: "the run timed out",
  token_limit: "the token limit was reached",
  loop_detected: "the model kept repeating the same tool calls",
  max_output_tokens: "the answer was cut off by the model's output token limit",
};

/** The exit code of a finished run. */
function exitCodeOf(result: AgentResult): ExitCode {
  if (result.stopReason === "completed") return EXIT_CODES.ok;
  if (result.stopReason === "aborted") return EXIT_CODES.aborted;
  if (ModelCallError.isInstance(result.error) && result.error.code === "missing_api_key")
    return EXIT_CODES.config;
  return EXIT_CODES.failed;
}

/** The trace file of part `index` of a run: `run.jsonl`, then `run.2.jsonl`, `run.3.jsonl`… */
function traceFileOf(path: string, index: number): string {
  if (index === 0) return path;
  const base = path.endsWith(".jsonl") ? path.slice(0, -".jsonl".length) : path;
  return `${base}.${index + 1}.jsonl`;
}

/** Tracks Ctrl-C: the first aborts the run, the second exits at once (exit code 130). */
function watchInterrupts({ io, controller }: { io: CliIo; controller: AbortController }): () => void {
  let count = 0;
  return io.onInterrupt(() => {
    count++;
    if (count > 1) {
      io.stderr.write("\nagentloop: interrupted\n");
      io.exit(EXIT_CODES.aborted);
      return;
    }
    io.stderr.write("\nagentloop: aborting… (press Ctrl-C again to exit at once)\n");
    controller.abort(new Error("interrupted (Ctrl-C)"));
  });
}

/** Runs the first part of the run: streamed (text as it arrives) or not. */
async function firstPart(args: {
  agent: Agent;
  options: RunArgs;
  signal: AbortSignal;
}): Promise<AgentResult> {
  const { agent, options, signal } = args;
  const runOptions = { signal, ...(options.sessionId !== undefined && { sessionId: options.sessionId }) };
  if (!options.stream) return agent.run(options.task, runOptions);
  const stream = agent.stream(options.task, runOptions);
  for await (const _event of stream) {
    // Shown through the agent's onEvent hook.
  }
  return stream.result;
}

/** Asks the human about each paused part and resumes, until the run no longer waits for approval. */
async function resumeWhilePaused(args: {
  agent: Agent;
  first: AgentResult;
  options: RunArgs;
  io: CliIo;
  view: RunView;
  reader: LineReader;
  signal: AbortSignal;
}): Promise<AgentResult[]> {
  const { agent, options, io, view, reader, signal } = args;
  const results = [args.first];
  let result = args.first;
  while (result.stopReason === "awaiting_approval" && result.pendingApprovals !== undefined) {
    view.pause();
    const answers = await askApprovals({
      calls: result.pendingApprovals,
      reader,
      stderr: io.stderr,
      yes: options.yes,
      echo: io.stdin.isTTY !== true,
      signal,
    });
    const paused = options.sessionId !== undefined ? { sessionId: options.sessionId } : result;
    result = await agent.resume(paused, { ...answers, signal });
    results.push(result);
  }
  return results;
}

/**
 * `agentloop run "task" [options]`: runs an agent on the task and shows it (see `agentloop run --help`).
 * Resolves with the exit code; throws a {@link CliError} for usage and configuration errors.
 */
export async function runCommand({ args, io }: RunCommandOptions): Promise<ExitCode> {
  const parsed = parseRunArgs({ args });
  if (parsed.help) {
    io.stdout.write(helpFor("run") ?? "");
    return EXIT_CODES.ok;
  }
  const options: RunArgs = { ...parsed, model: chooseCliModel({ ...parsed, env: io.env }) };
  const view = createRunView({ args: options, io });
  const reader = new LineReader({ input: io.stdin });
  const tools = buildCliTools({
    names: options.tools,
    allowNet: options.allowNet,
    cwd: io.cwd,
    ask: async (question, ctx) => {
      view.pause();
      io.stderr.write(`? ${escapeTerminalText(question)}\n> `);
      const answer = await reader.readLine({ signal: ctx.signal });
      if (answer === undefined) throw new Error("the input ended before the user answered");
      if (io.stdin.isTTY !== true) io.stderr.write(`${answer}\n`);
      return answer;
    },
  });
  const cliModel = await resolveCliModel({ model: options.model, demo: options.demo, env: io.env });
  if (options.maxCostUsd !== undefined && !new CostMeter().canPrice(cliModel.model.modelId)) {
    await cliModel.close();
    throw CliError.usage(
      `--max-cost needs the model's price, and "${options.model}" is not in agentloop's price table (its calls ` +
        "would count as $0, so the cap could never stop the run): drop --max-cost or use a priced model",
    );
  }
  const controller = new AbortController();
  const unwatch = watchInterrupts({ io, controller });
  try {
    if (cliModel.notice !== undefined) io.stderr.write(`agentloop: ${cliModel.notice}\n`);
    if (options.demoTask)
      io.stderr.write(`agentloop: no task given: running the demo task "${options.task}"\n`);
    const agent = new Agent({
      model: cliModel.model,
      tools,
      ...(options.system !== undefined && { system: options.system }),
      limits: {
        ...(options.maxTurns !== undefined && { maxTurns: options.maxTurns }),
        ...(options.maxCostUsd !== undefined && { maxCostUsd: options.maxCostUsd }),
      },
      ...(options.sessionId !== undefined && {
        store: new FileStore({ dir: resolve(io.cwd, options.storeDir) }),
      }),
      trace: options.tracePath !== undefined,
      onEvent: (event) => view.onEvent(event),
    });
    const signal = controller.signal;
    const first = await firstPart({ agent, options, signal });
    const results = await resumeWhilePaused({ agent, first, options, io, view, reader, signal });
    view.pause();
    const traceFiles = await saveTraces({ results, options, io });
    const last = results.at(-1) ?? first;
    if (options.json && !options.stream) {
      const summary = summarizeRun({
        results,
        model: options.model,
        sessionId: options.sessionId,
        traceFiles,
      });
      // Like the events of --json --stream: what goes to other programs and logs is redacted.
      const redacted = createRedactor().redactValue(summary as unknown as JsonValue);
      io.stdout.write(`${escapeJsonForTerminal(JSON.stringify(redacted))}\n`);
    }
    reportOutcome({ result: last, io });
    return exitCodeOf(last);
  } finally {
    view.pause();
    unwatch();
    reader.close();
    await cliModel.close();
  }
}

/** Writes each part's trace (`--trace`); returns the files written. */
async function saveTraces(args: { results: AgentResult[]; options: RunArgs; io: CliIo }): Promise<string[]> {
  const { results, options, io } = args;
  if (options.tracePath === undefined) return [];
  const files: string[] = [];
  for (const [index, result] of results.entries()) {
    if (result.trace === undefined) continue;
    const file = traceFileOf(options.tracePath, index);
    await saveTrace({ trace: result.trace, path: resolve(io.cwd, file) });
    files.push(file);
  }
  if (files.length > 0) {
    const parts =
      files.length > 1 ? ` (${files.length} parts: the run paused for approval and was resumed)` : "";
    io.stderr.write(`agentloop: trace saved to ${files.join(", ")}${parts}\n`);
  }
  return files;
}

/** One line on stderr for a run that did not complete. */
function reportOutcome({ result, io }: { result: AgentResult; io: CliIo }): void {
  const { stopReason } = result;
  if (stopReason === "completed") return;
  if (stopReason === "aborted") {
    io.stderr.write("agentloop: aborted\n");
    return;
  }
  if (stopReason === "error") {
    const message = result.error === undefined ? "the run failed" : result.error.message;
    io.stderr.write(`agentloop: error: ${escapeTerminalText(message.replace(/\s*\n\s*/g, " "))}\n`);
    return;
  }
  io.stderr.write(
    `agentloop: stopped (${stopReason}): ${LIMIT_HINTS[stopReason] ?? "the run did not complete"}\n`,
  );
}
