import type { ToolCall, ToolMessage } from "../../models/message.js";
import type { StopReason } from "../agent-event.js";
import type { StopConditions } from "./stop-conditions.js";
import type { TerminalTools } from "./terminal-tools.js";

/**
 * After a turn's tool calls were answered (their results in the history, the checkpoint done): a terminal
 * tool's successful result ends the run as the answer (`completed`), else a `stopWhen` condition that holds
 * ends it (`stop_condition`). Made only for runs with terminal tools or stop conditions.
 */
export class AfterTools {
  private constructor(
    private readonly terminal: TerminalTools | undefined,
    private readonly stop: StopConditions | undefined,
  ) {}

  /** The policy, or undefined when the run has neither terminal tools nor stop conditions. */
  static of({
    terminal,
    stop,
  }: {
    terminal: TerminalTools | undefined;
    stop: StopConditions | undefined;
  }): AfterTools | undefined {
    return terminal === undefined && stop === undefined ? undefined : new AfterTools(terminal, stop);
  }

  /** The stop reason after the turn whose `calls` were answered with `results`; undefined: the run goes on. */
  async check(turn: {
    calls: readonly ToolCall[];
    results: readonly ToolMessage[];
  }): Promise<StopReason | undefined> {
    const answered = await this.terminal?.answer(turn.results);
    if (answered !== undefined) return answered;
    if (this.stop !== undefined && (await this.stop.holds(turn))) return "stop_condition";
    return undefined;
  }
}
