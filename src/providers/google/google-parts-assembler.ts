import { createToolCall, type ToolCall } from "../../models/message.js";
import type { ModelStreamPart } from "../../models/model-stream-part.js";
import { checkToolCallSlot } from "../check-tool-call-slot.js";
import { applyGooglePartialArgs } from "./apply-google-partial-args.js";
import type { GoogleProviderData } from "./google-provider-data.js";
import type { GoogleWireFunctionCall, GoogleWirePart } from "./google-wire-types.js";

/** A function call being assembled (a Vertex call streamed in pieces, or one that came whole). */
interface OpenCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** Its part as it will be sent back (`functionCall` filled in when the call ends). */
  part: GoogleWirePart;
  wireId: string | undefined;
}

/** Options of {@link GooglePartsAssembler}. */
export interface GooglePartsAssemblerOptions {
  /** The URL called (without credentials), for errors. */
  url: string;
  /** `limits.maxToolCalls`; undefined: no bound. */
  maxToolCalls?: number | undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * Turns the parts of a Gemini answer (all of a response's, or a stream's chunk by chunk) into stream parts,
 * and keeps what the next request must send back. Both `generateContent` and the stream reader use it, so
 * both modes give the same answer.
 *
 * - `text` parts → `text_delta`; `thought: true` parts → `reasoning_delta`.
 * - `functionCall` parts → `tool_call_start`, one `tool_call_delta` (the arguments as JSON; `{}` when `args` is
 *   missing) and `tool_call_end`. The call's own `id` is kept; a call without one (models before Gemini 3)
 *   gets `call_<responseId>_<n>` (or `call_<n>`), and the request builder then sends its result by name and
 *   order, without an id. A Vertex call streamed with `willContinue` / `partialArgs` is assembled until a
 *   part without `willContinue` (the empty `functionCall: {}`) or another call ends it.
 * - The parts to send back ({@link parts}): every part in order, with `thoughtSignature` on the part it
 *   came with; consecutive text pieces of a stream are joined into one part (a piece with its own signature
 *   starts a new part, as the API sends it); thought summaries without a signature and empty text without one
 *   are left out (the API needs neither back).
 */
export class GooglePartsAssembler {
  /** The answer's text. */
  text = "";
  /** The answer's thought summaries. */
  reasoning = "";
  /** The complete tool calls, in order. */
  readonly toolCalls: ToolCall[] = [];
  /** The parts to send back on the next turn. */
  readonly parts: GoogleWirePart[] = [];
  private signed = false;
  private calls = 0;
  private open: OpenCall | undefined;
  /** The last kept part is text that later unsigned pieces of the same kind extend. */
  private lastText: GoogleWirePart | undefined;

  constructor(private readonly options: GooglePartsAssemblerOptions) {}

  /** Adds one part of the answer; `responseId` names synthesized call ids. Yields what it streams. */
  *add(part: unknown, responseId: string | undefined): Generator<ModelStreamPart> {
    if (!isPlainObject(part)) return;
    const wire = part as GoogleWirePart;
    const signature = nonEmpty(wire.thoughtSignature);
    if (signature !== undefined) this.signed = true;
    if (isPlainObject(wire.functionCall)) {
      yield* this.addCall(wire, wire.functionCall as GoogleWireFunctionCall, responseId);
      return;
    }
    yield* this.close();
    if (typeof wire.text !== "string") {
      this.keep({ ...wire });
      return;
    }
    const thought = wire.thought === true;
    if (wire.text !== "") {
      if (thought) this.reasoning += wire.text;
      else this.text += wire.text;
      yield { type: thought ? "reasoning_delta" : "text_delta", delta: wire.text };
    }
    const last = this.lastText;
    if (signature === undefined && last !== undefined && (last.thought === true) === thought) {
      last.text = `${last.text ?? ""}${wire.text}`;
      return;
    }
    if (signature === undefined && (thought || wire.text === "")) return;
    const kept: GoogleWirePart = { ...wire };
    this.keep(kept);
    this.lastText = kept;
  }

  /** Ends a call still being assembled (at the end of the answer). */
  *finish(): Generator<ModelStreamPart> {
    yield* this.close();
  }

  /** The `providerData` of the answer: the parts to send back, when it has a signature or a call. */
  providerData(): GoogleProviderData | undefined {
    if (!this.signed && this.toolCalls.length === 0 && this.open === undefined) return undefined;
    return { google: { parts: this.parts } };
  }

  private keep(part: GoogleWirePart): void {
    this.parts.push(part);
    this.lastText = undefined;
  }

  private *addCall(
    wire: GoogleWirePart,
    call: GoogleWireFunctionCall,
    responseId: string | undefined,
  ): Generator<ModelStreamPart> {
    const name = nonEmpty(call.name);
    const open = this.open;
    if (open !== undefined && name === undefined) {
      // A continuation of a streamed call.
      if (Array.isArray(call.partialArgs)) applyGooglePartialArgs(open.args, call.partialArgs);
      if (isPlainObject(call.args)) Object.assign(open.args, call.args);
      const signature = nonEmpty(wire.thoughtSignature);
      if (signature !== undefined && open.part.thoughtSignature === undefined) {
        open.part.thoughtSignature = signature;
      }
      if (call.willContinue !== true) yield* this.close();
      return;
    }
    yield* this.close();
    if (name === undefined) return; // an empty call with nothing open: nothing to do
    checkToolCallSlot({ slot: this.calls, maxToolCalls: this.options.maxToolCalls, url: this.options.url });
    const wireId = nonEmpty(call.id);
    const id =
      wireId ?? (responseId !== undefined ? `call_${responseId}_${this.calls}` : `call_${this.calls}`);
    this.calls++;
    const args: Record<string, unknown> = {};
    if (isPlainObject(call.args)) Object.assign(args, call.args);
    if (Array.isArray(call.partialArgs)) applyGooglePartialArgs(args, call.partialArgs);
    const { functionCall: _call, ...rest } = wire;
    const part: GoogleWirePart = { ...rest };
    this.keep(part);
    this.open = { id, name, args, part, wireId };
    yield { type: "tool_call_start", id, name };
    if (call.willContinue !== true) yield* this.close();
  }

  private *close(): Generator<ModelStreamPart> {
    const open = this.open;
    if (open === undefined) return;
    this.open = undefined;
    const rawArguments = JSON.stringify(open.args);
    open.part.functionCall = {
      name: open.name,
      args: open.args,
      ...(open.wireId !== undefined && { id: open.wireId }),
    };
    // Keep the key order of the API (`functionCall` before `thoughtSignature`) for readable histories.
    const { functionCall, ...others } = open.part;
    for (const key of Object.keys(others)) delete open.part[key];
    Object.assign(open.part, { functionCall }, others);
    const toolCall = createToolCall({ id: open.id, name: open.name, rawArguments });
    this.toolCalls.push(toolCall);
    yield { type: "tool_call_delta", id: open.id, delta: rawArguments };
    yield { type: "tool_call_end", toolCall };
  }
}
