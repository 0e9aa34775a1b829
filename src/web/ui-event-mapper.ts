import type { AgentEvent, AgentEventOf, StopReason } from "../loop/agent-event.js";
import type { UIAgentEventData, UIMessageChunk } from "./ui-message-types.js";
import { UIToolCalls } from "./ui-tool-calls.js";

/** Event types that stream a turn piece by piece (never forwarded as `data-agent-event`). */
const DELTAS = new Set(["text_delta", "reasoning_delta", "tool_call_delta", "output_delta"]);

/**
 * Which agent events also go out as transient `data-agent-event` chunks: none, the sub-agents' (default), or
 * all (the run's own too). Deltas never do.
 */
export type UIAgentEvents = "none" | "sub-agents" | "all";

/** Options of {@link UIEventMapper}. */
export interface UIEventMapperOptions {
  agentEvents: UIAgentEvents;
  /** Tool calls the client answered (approvals): their outcome is sent even when a sub-agent ran them. */
  decidedToolCallIds: ReadonlySet<string>;
}

/** What the mapper knows at the end, for the stream's last chunks. */
export interface UIMapperEnd {
  loopEnd: AgentEventOf<"loop_end"> | undefined;
  /** The first fatal `error` event of the run. */
  fatal: { name: string; message: string } | undefined;
  /** A guardrail that blocked the run. */
  guardrail: { name: string; reason: string } | undefined;
  /** A partial typed answer was sent. */
  outputSent: boolean;
}

/**
 * Turns the events of one run into UI message chunks: one event in, zero or more chunks out. Keeps the open
 * text and reasoning parts, the steps (a model turn each) and the turn's state; the tool parts are
 * {@link UIToolCalls}'. The mapping table is in docs/web.md.
 */
export class UIEventMapper {
  private readonly options: UIEventMapperOptions;
  private chunks: UIMessageChunk[] = [];
  private readonly tools = new UIToolCalls({ emit: (chunk) => this.chunks.push(chunk) });
  private parts = 0;
  private textId: string | undefined;
  private reasoningId: string | undefined;
  private stepOpen = false;
  private turn = 0;
  /** The turn's first text, held until the next event says whether it is a typed answer's JSON. */
  private heldText: string | undefined;
  /** "unknown" until the turn's first text is settled; "output": the turn's text is the typed answer. */
  private textMode: "unknown" | "text" | "output" = "unknown";
  private textInTurn = false;
  private lastText = "";
  private readonly end: UIMapperEnd = {
    loopEnd: undefined,
    fatal: undefined,
    guardrail: undefined,
    outputSent: false,
  };

  constructor(options: UIEventMapperOptions) {
    this.options = options;
  }

  /** The chunks of one event. */
  map(event: AgentEvent): UIMessageChunk[] {
    this.chunks = [];
    if (event.replayed === true) return this.chunks; // a durable run's past: the client has it
    if (event.agent !== undefined) this.subAgentEvent(event);
    else {
      this.settleHeldText(event.type === "output_delta");
      this.ownEvent(event);
      if (this.options.agentEvents === "all" && !DELTAS.has(event.type)) this.forward(event);
    }
    return this.chunks;
  }

  /** The stop reason of the run's `loop_end`, once it came. */
  get stopReason(): StopReason | undefined {
    return this.end.loopEnd?.data.stopReason;
  }

  /** Closes the open parts and the calls the run left; what the stream's end needs. */
  finish(stopReason: StopReason | undefined): UIMapperEnd & { chunks: UIMessageChunk[] } {
    this.chunks = [];
    this.settleHeldText(false);
    this.closeText();
    this.tools.settleRest(stopReason);
    return { ...this.end, chunks: this.chunks };
  }

  /** Sends `text` as a part of its own unless the stream showed it already (a run that did not stream). */
  finalText(text: string): UIMessageChunk[] {
    this.chunks = [];
    if (text !== "" && !this.textInTurn && text !== this.lastText) this.textBlock(text);
    if (this.stepOpen) this.emit({ type: "finish-step" });
    this.stepOpen = false;
    return this.chunks;
  }

  private ownEvent(event: AgentEvent): void {
    switch (event.type) {
      case "turn_start":
        this.startTurn(event.turn);
        break;
      case "text_delta":
        this.textDelta(event.data.delta);
        break;
      case "reasoning_delta":
        this.reasoningDelta(event.data.delta);
        break;
      case "tool_call_delta":
        this.closeText();
        this.tools.delta(event.data, this.turn);
        break;
      case "output_delta":
        this.tools.dropOutputCalls();
        this.end.outputSent = true;
        this.emit({
          type: "data-output",
          id: "output",
          data: { state: "partial", value: event.data.partial },
        });
        break;
      case "output_invalid":
        this.emit({ type: "data-output", id: "output", data: { state: "invalid", ...event.data } });
        break;
      case "thought":
        if (!this.textInTurn && this.textMode !== "output") this.textBlock(event.data.content);
        break;
      case "user_message":
        this.closeText();
        this.emit({ type: "steering-message", id: `steer-${this.parts++}`, parts: [textOf(event)] });
        break;
      case "approval_requested":
        this.closeText();
        this.tools.approvalRequested(event.data.calls, this.turn);
        break;
      case "action":
        this.closeText();
        this.tools.action(event.data, this.turn);
        break;
      case "observation":
        this.closeText();
        this.tools.observation(event.data);
        break;
      default:
        this.runEvent(event);
    }
  }

  /** The events that say how the run goes (retries, blocks, errors, its end). */
  private runEvent(event: AgentEvent): void {
    if (event.type === "retry" && event.data.source === "stream") this.resetTurn();
    else if (event.type === "guardrail") {
      // An output guardrail blocked the answer the client has already seen: take the turn back.
      if (event.data.kind === "output") this.resetTurn();
      this.end.guardrail ??= { name: event.data.name, reason: event.data.reason };
    } else if (event.type === "error" && event.data.fatal) {
      this.end.fatal ??= { name: event.data.name, message: event.data.message };
    } else if (event.type === "model_call") this.closeText();
    else if (event.type === "loop_end") this.end.loopEnd = event;
  }

  private subAgentEvent(event: AgentEvent): void {
    const { decidedToolCallIds } = this.options;
    // A call the client approved that ran inside a sub-agent: its tool part gets the outcome.
    if (event.type === "action" && decidedToolCallIds.has(event.data.toolCallId)) {
      this.tools.action(event.data, this.turn, event.agent);
    } else if (event.type === "observation" && decidedToolCallIds.has(event.data.toolCallId)) {
      this.tools.observation(event.data);
    } else if (this.options.agentEvents !== "none" && !DELTAS.has(event.type)) this.forward(event);
  }

  private forward(event: AgentEvent): void {
    const data: UIAgentEventData = { type: event.type, turn: event.turn, data: safeData(event) };
    if (event.agent !== undefined) data.agent = event.agent;
    this.emit({ type: "data-agent-event", data, transient: true });
  }

  private startTurn(turn: number): void {
    this.tools.flushHeld();
    this.closeText();
    if (this.stepOpen) this.emit({ type: "finish-step" });
    this.emit({ type: "start-step" });
    this.stepOpen = true;
    this.turn = turn;
    this.textMode = "unknown";
    this.textInTurn = false;
  }

  private textDelta(delta: string): void {
    if (this.textMode === "output") return;
    if (this.textMode === "unknown") {
      // Held one event: an `output_delta` right after it means the turn's text is the typed answer's JSON.
      this.heldText = (this.heldText ?? "") + delta;
      return;
    }
    this.writeText(delta);
  }

  private settleHeldText(isOutput: boolean): void {
    if (this.heldText === undefined) return;
    const text = this.heldText;
    this.heldText = undefined;
    this.textMode = isOutput ? "output" : "text";
    if (!isOutput) this.writeText(text);
  }

  private writeText(delta: string): void {
    this.closeReasoning();
    if (this.textId === undefined) {
      this.textId = `text-${this.parts++}`;
      this.emit({ type: "text-start", id: this.textId });
      this.lastText = "";
    }
    this.textInTurn = true;
    this.lastText += delta;
    if (delta !== "") this.emit({ type: "text-delta", id: this.textId, delta });
  }

  private textBlock(text: string): void {
    this.closeText();
    this.writeText(text);
    this.closeText();
  }

  private reasoningDelta(delta: string): void {
    this.closeTextOnly();
    if (this.reasoningId === undefined) {
      this.reasoningId = `reasoning-${this.parts++}`;
      this.emit({ type: "reasoning-start", id: this.reasoningId });
    }
    this.emit({ type: "reasoning-delta", id: this.reasoningId, delta });
  }

  /** What the turn streamed is void (a retried stream, a blocked answer): the client drops the step's parts. */
  private resetTurn(): void {
    this.heldText = undefined;
    this.textId = undefined;
    this.reasoningId = undefined;
    this.textMode = "unknown";
    this.textInTurn = false;
    this.lastText = "";
    this.tools.forgetTurn(this.turn);
    this.emit({ type: "reset-step" });
  }

  private closeText(): void {
    this.closeTextOnly();
    this.closeReasoning();
  }

  private closeTextOnly(): void {
    if (this.textId === undefined) return;
    this.emit({ type: "text-end", id: this.textId });
    this.textId = undefined;
  }

  private closeReasoning(): void {
    if (this.reasoningId === undefined) return;
    this.emit({ type: "reasoning-end", id: this.reasoningId });
    this.reasoningId = undefined;
  }

  private emit(chunk: UIMessageChunk): void {
    this.chunks.push(chunk);
  }
}

function textOf(event: AgentEventOf<"user_message">): { type: "text"; text: string } {
  return { type: "text", text: event.data.content };
}

/**
 * An event's data for the browser: without the error messages of failures (they may hold hosts, ids or a
 * provider's answer; `onError` decides what a client is told), as the stream's own error chunk does.
 */
function safeData(event: AgentEvent): unknown {
  switch (event.type) {
    case "error":
      return { name: event.data.name, fatal: event.data.fatal };
    case "retry": {
      const { error: _error, ...rest } = event.data;
      return rest;
    }
    case "model_fallback":
      return { from: event.data.from, to: event.data.to };
    default:
      return event.data;
  }
}
