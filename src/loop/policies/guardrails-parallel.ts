import type { GuardrailBlock } from "../../guardrails/run-guardrails.js";
import type { ModelResponse } from "../../models/model.js";
import type { AgentEvent } from "../agent-event.js";

/** Events of a turn that carry its answer: dropped when the turn's input was blocked (the answer is discarded). */
const ANSWER_EVENTS: ReadonlySet<string> = new Set([
  "text_delta",
  "reasoning_delta",
  "tool_call_delta",
  "output_delta",
  "output_invalid",
]);

type TurnEvents = AsyncGenerator<AgentEvent, ModelResponse | undefined>;

/** One step of the turn: an event, its end (the response), or its failure. */
type TurnStep =
  | { kind: "event"; event: AgentEvent }
  | { kind: "done"; response: ModelResponse | undefined }
  | { kind: "failed"; error: unknown };

/** The check's outcome: settled (blocked or not), or failed (the run was aborted while it ran). */
type CheckStep =
  | { kind: "checked"; block: GuardrailBlock | undefined }
  | { kind: "check_failed"; error: unknown };

function advance(events: TurnEvents): Promise<TurnStep> {
  return events.next().then(
    (next): TurnStep =>
      next.done ? { kind: "done", response: next.value } : { kind: "event", event: next.value },
    (error: unknown): TurnStep => ({ kind: "failed", error }),
  );
}

/** Options of {@link runAlongside}. */
export interface RunAlongsideOptions {
  /** The first model turn's events. */
  events: TurnEvents;
  /** The parallel input guardrails, already started. */
  check: Promise<GuardrailBlock | undefined>;
  /**
   * Called once when the check blocks, before the turn is drained: aborts the run's signal (the model call in
   * flight is cancelled) and records the block.
   */
  onBlock: (block: GuardrailBlock) => void;
  /** Called with the turn's response when the check blocked after the turn had answered: discard the answer. */
  onDiscard: (response: ModelResponse) => void;
}

/**
 * Runs the first model turn while parallel input guardrails check the input. The turn's events are held back
 * until the check settles: when it passes, they are yielded and the turn goes on live; when it blocks, the
 * call is aborted (`onBlock`), the turn is drained, its answer discarded (`onDiscard`) and its events dropped
 * but for the bookkeeping ones (`model_call`, `retry`, `compaction`, warnings: a finished call's cost counts).
 * Returns the turn's response (undefined when blocked). The check wins over a failed turn: a block ends the
 * run with `guardrail`, whatever the model did; a passed check rethrows the turn's failure.
 */
export async function* runAlongside(options: RunAlongsideOptions): TurnEvents {
  const { events } = options;
  const checked = options.check.then(
    (block): CheckStep => ({ kind: "checked", block }),
    (error: unknown): CheckStep => ({ kind: "check_failed", error }),
  );
  const held: AgentEvent[] = [];
  let ended: TurnStep | undefined;
  let pending = advance(events);
  let verdict: CheckStep | undefined;
  let finished = false;
  try {
    while (verdict === undefined) {
      const step = ended === undefined ? await Promise.race([checked, pending]) : await checked;
      if (step.kind === "checked" || step.kind === "check_failed") verdict = step;
      else if (step.kind === "event") {
        held.push(step.event);
        pending = advance(events);
      } else ended = step;
    }
    if (verdict.kind === "checked" && verdict.block === undefined) {
      for (const event of held) yield event;
      let step = ended ?? (await pending);
      while (step.kind === "event") {
        yield step.event;
        step = await advance(events);
      }
      finished = true;
      if (step.kind === "failed") throw step.error;
      return step.response;
    }
    if (verdict.kind === "checked" && verdict.block !== undefined) options.onBlock(verdict.block);
    // The run's signal is aborted (by the block, or the caller / timeout): the call ends soon; drain it.
    let step = ended ?? (await pending);
    while (step.kind === "event") {
      held.push(step.event);
      step = await advance(events);
    }
    finished = true;
    if (verdict.kind === "check_failed") throw verdict.error;
    if (step.kind === "done" && step.response !== undefined) options.onDiscard(step.response);
    for (const event of held) if (!ANSWER_EVENTS.has(event.type)) yield event;
    return undefined;
  } finally {
    // Left early (the consumer stopped iterating): let the turn run its own clean-up once its step settles.
    if (!finished) void pending.then(() => events.return(undefined)).catch(() => undefined);
  }
}
