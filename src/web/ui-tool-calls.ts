import type { AgentEventOf, StopReason } from "../loop/agent-event.js";
import { parseToolArguments } from "../models/message.js";
import type { UIMessageChunk, UIToolMetadata } from "./ui-message-types.js";

/** The tool a model without native structured output answers a typed answer with (src/output). */
const OUTPUT_TOOL = "final_answer";

/** A tool call as the stream has announced it. */
interface CallState {
  toolName: string;
  /** The raw argument text streamed so far. */
  raw: string;
  /** `tool-input-available` was sent. */
  available: boolean;
  /** Its outcome (output, error, denied) was sent. */
  settled: boolean;
  /** Waits for a decision (a human's, or an automatic approval). */
  pending: boolean;
  /** The turn that announced it (a `reset-step` forgets the turn's calls). */
  turn: number;
  toolMetadata?: UIToolMetadata;
  /** Chunks held back: a `final_answer` call is the typed answer (dropped) or a tool call (sent). */
  held?: UIMessageChunk[];
  /** The call was the typed answer: it has no tool part. */
  output?: boolean;
}

/**
 * The tool parts of a UI message stream: each call's input as it streams, its input once complete, the
 * approval requests of a paused run, and its outcome. Writes chunks through `emit`.
 */
export class UIToolCalls {
  private readonly calls = new Map<string, CallState>();
  private readonly emit: (chunk: UIMessageChunk) => void;

  constructor({ emit }: { emit: (chunk: UIMessageChunk) => void }) {
    this.emit = emit;
  }

  /** A fragment of a call's arguments (the first, maybe "", announces the call). */
  delta({ toolCallId, toolName, delta }: AgentEventOf<"tool_call_delta">["data"], turn: number): void {
    let call = this.calls.get(toolCallId);
    if (call === undefined) {
      call = { toolName, raw: "", available: false, settled: false, pending: false, turn };
      // The typed answer of a model without native structured output streams as this call: held until known.
      if (toolName === OUTPUT_TOOL) call.held = [];
      this.calls.set(toolCallId, call);
      this.emitFor(call, { type: "tool-input-start", toolCallId, toolName });
    }
    if (call.output === true) return;
    call.raw += delta;
    if (delta !== "") this.emitFor(call, { type: "tool-input-delta", toolCallId, inputTextDelta: delta });
  }

  /**
   * The run paused: an approval request per pending call (with its input, and for a call inside a sub-agent a
   * part of its own, `toolMetadata.agent`). The turn's other calls wait with it, approved already: they get an
   * automatic approval, so the client sees every call of the step answered once the human decided.
   */
  approvalRequested(pending: AgentEventOf<"approval_requested">["data"]["calls"], turn: number): void {
    this.flushHeld();
    for (const item of pending) {
      const call = this.callOf(item.toolCallId, item.toolName, item.agent, turn);
      if (!call.available) this.emit(this.inputAvailable(item.toolCallId, call, item.arguments));
      call.available = true;
      call.pending = true;
      this.emit({ type: "tool-approval-request", approvalId: item.toolCallId, toolCallId: item.toolCallId });
    }
    for (const [id, call] of this.calls) {
      if (call.pending || call.settled || call.output === true) continue;
      this.makeAvailable(id, call);
      this.emit({ type: "tool-approval-request", approvalId: id, toolCallId: id, isAutomatic: true });
      this.emit({ type: "tool-approval-response", approvalId: id, approved: true });
      call.pending = true;
    }
  }

  /** A call is about to run: its complete input (also for a call the client has already: it shows it running). */
  action(data: AgentEventOf<"action">["data"], turn: number, agent?: string): void {
    this.flushHeld();
    const call = this.callOf(data.toolCallId, data.toolName, agent, turn);
    call.pending = false;
    if (!call.available) this.emit(this.inputAvailable(data.toolCallId, call, data.arguments));
    call.available = true;
  }

  /** A call's outcome: its result (the text the model got), its error, or its denial. */
  observation(data: AgentEventOf<"observation">["data"]): void {
    const call = this.calls.get(data.toolCallId);
    if (call !== undefined) call.settled = true;
    const toolCallId = data.toolCallId;
    if (data.ok) this.emit({ type: "tool-output-available", toolCallId, output: data.result });
    else if (data.error?.type === "ApprovalDenied") this.emit({ type: "tool-output-denied", toolCallId });
    else this.emit({ type: "tool-output-error", toolCallId, errorText: data.result });
  }

  /** The turn streamed a typed answer: its held `final_answer` calls were that answer, not tool calls. */
  dropOutputCalls(): void {
    for (const call of this.calls.values()) {
      if (call.held === undefined) continue;
      call.held = undefined;
      call.output = true;
    }
  }

  /** Sends what was held back: the held calls were tool calls after all. */
  flushHeld(): void {
    for (const call of this.calls.values()) {
      if (call.held === undefined) continue;
      const held = call.held;
      call.held = undefined;
      for (const chunk of held) this.emit(chunk);
    }
  }

  /** The turn's streamed calls are void (a `reset-step` dropped their parts). */
  forgetTurn(turn: number): void {
    for (const [id, call] of this.calls) if (call.turn === turn && !call.available) this.calls.delete(id);
  }

  /** The run ended: a call that never ran gets an error saying why (unless the run waits for approvals). */
  settleRest(stopReason: StopReason | undefined): void {
    this.flushHeld();
    if (stopReason === "awaiting_approval") return;
    for (const [id, call] of this.calls) {
      if (call.settled || call.output === true) continue;
      this.makeAvailable(id, call);
      const errorText = `The run ended before this call ran (${stopReason ?? "no result"}).`;
      this.emit({ type: "tool-output-error", toolCallId: id, errorText });
      call.settled = true;
    }
  }

  /** A call's state, made for a call this stream has not announced (a resumed turn's, a sub-agent's). */
  private callOf(toolCallId: string, toolName: string, agent: string | undefined, turn: number): CallState {
    let call = this.calls.get(toolCallId);
    if (call === undefined) {
      call = { toolName, raw: "", available: false, settled: false, pending: false, turn };
      if (agent !== undefined) call.toolMetadata = { agent };
      this.calls.set(toolCallId, call);
    }
    return call;
  }

  private inputAvailable(toolCallId: string, call: CallState, input: unknown): UIMessageChunk {
    const chunk: UIMessageChunk = {
      type: "tool-input-available",
      toolCallId,
      toolName: call.toolName,
      input,
    };
    if (call.toolMetadata !== undefined) chunk.toolMetadata = call.toolMetadata;
    return chunk;
  }

  /** `tool-input-available` for a streamed call, with the arguments parsed from its fragments. */
  private makeAvailable(toolCallId: string, call: CallState): void {
    if (call.available) return;
    const parsed = parseToolArguments(call.raw);
    this.emit(this.inputAvailable(toolCallId, call, parsed.arguments ?? call.raw));
    call.available = true;
  }

  private emitFor(call: CallState, chunk: UIMessageChunk): void {
    if (call.held !== undefined) call.held.push(chunk);
    else this.emit(chunk);
  }
}
