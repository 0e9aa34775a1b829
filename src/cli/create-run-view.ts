import type { AgentEvent, AgentEventType } from "../loop/agent-event.js";
import { createJsonLinesRenderer } from "../render/json-lines-renderer.js";
import { Renderer } from "../render/renderer.js";
import { createTerminalRenderer } from "../render/terminal-renderer.js";
import type { CliIo } from "./cli-io.js";
import type { RunArgs } from "./parse-run-args.js";
import { Spinner } from "./spinner.js";

/** Options of {@link createRunView}. */
export interface RunViewOptions {
  args: Pick<RunArgs, "json" | "stream" | "quiet" | "color" | "model">;
  io: Pick<CliIo, "stdout" | "stderr" | "env">;
}

/** How `agentloop run` shows a run: events to stdout (rendered), a spinner on stderr while waiting. */
export interface RunView {
  /** Shows one event (the agent's `onEvent` hook). */
  onEvent(event: AgentEvent): void;
  /** Stops the spinner (before writing anything else, e.g. a prompt). */
  pause(): void;
}

/** The events `--quiet` hides: everything but the end of the run. */
const QUIET_HIDDEN: readonly AgentEventType[] = [
  "loop_start",
  "model_call",
  "text_delta",
  "reasoning_delta",
  "tool_call_delta",
  "plan",
  "thought",
  "approval_requested",
  "action",
  "observation",
  "soft_limit",
  "compaction",
  "retry",
  "error",
];

/**
 * A renderer that prints only the final answer, when the run ends (streamed text is not shown: until a turn
 * ends it is not known whether its text is the answer or a remark before tool calls).
 */
function quietRenderer(io: RunViewOptions["io"]): Renderer {
  const renderer = new Renderer({ write: (text) => io.stdout.write(text) });
  for (const type of QUIET_HIDDEN) renderer.onEvent(type, () => undefined);
  renderer.onEvent("loop_end", (event) =>
    event.agent !== undefined || event.data.stopReason === "awaiting_approval" || event.data.text === ""
      ? undefined
      : `${event.data.text}\n`,
  );
  return renderer;
}

function chooseRenderer({ args, io }: RunViewOptions): Renderer | undefined {
  if (args.json) return args.stream ? createJsonLinesRenderer({ stream: io.stdout }) : undefined;
  if (args.quiet) return quietRenderer(io);
  return createTerminalRenderer({
    stream: io.stdout,
    env: io.env,
    ...(args.color !== undefined && { color: args.color }),
  });
}

/**
 * The view of `agentloop run`: the terminal renderer (or JSON lines with `--json --stream`, nothing with
 * `--json` alone, the answer only with `--quiet`) and, when stderr is a terminal, a spinner while the run
 * waits for the model or a tool.
 */
export function createRunView(options: RunViewOptions): RunView {
  const { args, io } = options;
  const renderer = chooseRenderer(options);
  const spinner = new Spinner({ stream: io.stderr, enabled: io.stderr.isTTY === true && !args.quiet });
  return {
    onEvent(event) {
      spinner.stop();
      renderer?.handle(event);
      if ((event.type === "loop_end" && event.agent === undefined) || event.type === "approval_requested")
        return;
      if (renderer?.isMidLine) return; // streamed text is being written on this line
      spinner.start(
        event.type === "action" ? `running ${event.data.toolName}…` : `waiting for ${args.model}…`,
      );
    },
    pause() {
      spinner.stop();
    },
  };
}
