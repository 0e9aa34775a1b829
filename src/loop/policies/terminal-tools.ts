import { OutputError } from "../../errors/output-error.js";
import { contentText } from "../../models/content-part.js";
import type { ToolMessage } from "../../models/message.js";
import { decodeOutputText, type ResolvedOutput } from "../../output/resolve-output.js";
import type { ToolRegistry } from "../../tools/tool-registry.js";
import type { StopReason } from "../agent-event.js";
import type { LoopState } from "../loop-state.js";

/** Options of {@link TerminalTools}. */
export interface TerminalToolsOptions {
  state: LoopState;
  /** The run's tools (a call's tool is looked up here by name). */
  registry: ToolRegistry;
  /** The typed answer's schema, for agents with an `output` schema. */
  output?: ResolvedOutput | undefined;
}

/**
 * Tools marked `terminal: true`: after a turn's calls were all answered, the first successful call (in call
 * order) of such a tool ends the run with its result as the answer: `result.text` is the result's text, the
 * stop reason `completed`. For an agent with an `output` schema the result is the typed answer: decoded as JSON
 * and checked against the schema (`result.output`); a result that does not match ends the run with `error` and
 * an {@link OutputError} (the tool, not the model, gave it: it is not sent back for another try).
 */
export class TerminalTools {
  constructor(private readonly options: TerminalToolsOptions) {}

  /** Made only for a run with at least one terminal tool (none: no work after a turn). */
  static of(options: TerminalToolsOptions): TerminalTools | undefined {
    return options.registry.list().some((tool) => tool.terminal) ? new TerminalTools(options) : undefined;
  }

  /** The stop reason when a terminal tool's call succeeded among `results`, else undefined. */
  async answer(results: readonly ToolMessage[]): Promise<StopReason | undefined> {
    const { registry, state, output } = this.options;
    const result = results.find((r) => r.isError !== true && registry.get(r.toolName)?.terminal === true);
    if (result === undefined) return undefined;
    const text = contentText(result.content);
    state.text = text;
    if (output === undefined) return "completed";
    const decoded = decodeOutputText(text);
    const checked = decoded.ok ? await output.check(decoded.value) : decoded;
    if (checked.ok) {
      state.output = checked.value;
      return "completed";
    }
    state.outputError = new OutputError({
      reason: "invalid",
      message: `the result of terminal tool "${result.toolName}" is not a valid typed answer: ${checked.errors.slice(0, 5).join("; ")}`,
      errors: checked.errors,
      text,
    });
    return "error";
  }
}
