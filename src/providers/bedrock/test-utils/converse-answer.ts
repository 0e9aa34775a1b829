import type { ScriptedResponse } from "../../openai/test-utils/fixture-server.js";
import { bedrockEventFrame, bedrockExceptionFrame } from "./encode-event-stream.js";

/** One scripted Converse answer: text and/or tool calls (each `{id, name, input}`). */
export interface ConverseTurn {
  /** Reasoning shown before the answer, with its signature (Claude's extended thinking). */
  reasoning?: { text: string; signature: string };
  text?: string;
  toolCalls?: { id: string; name: string; input: Record<string, unknown> }[];
  /** Default `tool_use` with tool calls, else `end_turn`. */
  stopReason?: string;
  usage?: { inputTokens: number; outputTokens: number };
}

/** How a Converse answer breaks (see {@link converseAnswer}). */
export type ConverseFault =
  /** An error status with Bedrock's envelope: `{"message"}` body, type in `x-amzn-errortype`. */
  | { type: "status"; status: number; errorType: string; retryAfter?: string }
  | { type: "reset-before-headers" }
  | { type: "hang" }
  /** Streaming: the socket drops right after the first text frame (non-streaming: half-way through the JSON). */
  | { type: "drop-after-text" }
  /** Streaming: the socket drops after the first `toolUse.input` frame. */
  | { type: "drop-in-arguments" }
  /** Streaming: the body ends cleanly before `messageStop`. */
  | { type: "end-before-stop" }
  /** Streaming: after the first text frame, a frame with one payload byte flipped (its message CRC fails). */
  | { type: "corrupt-frame-after-text" }
  /** Streaming: after the first text frame, an exception frame (`:message-type: exception`). */
  | { type: "exception-after-text"; exceptionType: string; message: string }
  /** Every frame (non-streaming: eight pieces of the JSON) written `intervalMs` apart. */
  | { type: "slow_drip"; intervalMs: number };

const USAGE = { inputTokens: 40, outputTokens: 10 };

function stopReasonOf(turn: ConverseTurn): string {
  return turn.stopReason ?? ((turn.toolCalls ?? []).length > 0 ? "tool_use" : "end_turn");
}

/** The non-streaming Converse response body of a turn. */
export function converseJson(turn: ConverseTurn): string {
  const content: Record<string, unknown>[] = [];
  if (turn.reasoning !== undefined) content.push({ reasoningContent: { reasoningText: turn.reasoning } });
  if (turn.text !== undefined && turn.text !== "") content.push({ text: turn.text });
  for (const call of turn.toolCalls ?? []) {
    content.push({ toolUse: { toolUseId: call.id, name: call.name, input: call.input } });
  }
  const usage = turn.usage ?? USAGE;
  return JSON.stringify({
    output: { message: { role: "assistant", content } },
    stopReason: stopReasonOf(turn),
    usage: { ...usage, totalTokens: usage.inputTokens + usage.outputTokens },
    metrics: { latencyMs: 12 },
  });
}

/** The event-stream frames of a turn, each tagged with what it carries (to place faults). */
export function converseFrames(turn: ConverseTurn): { kind: string; bytes: Uint8Array }[] {
  const frames: { kind: string; bytes: Uint8Array }[] = [];
  const add = (kind: string, type: string, payload: unknown) =>
    frames.push({ kind, bytes: bedrockEventFrame(type, { ...(payload as object), p: "abcdef" }) });
  add("start", "messageStart", { role: "assistant" });
  let index = 0;
  if (turn.reasoning !== undefined) {
    const { text, signature } = turn.reasoning;
    add("reasoning", "contentBlockDelta", {
      contentBlockIndex: index,
      delta: { reasoningContent: { text } },
    });
    add("reasoning", "contentBlockDelta", {
      contentBlockIndex: index,
      delta: { reasoningContent: { signature } },
    });
    add("stop", "contentBlockStop", { contentBlockIndex: index });
    index++;
  }
  if (turn.text !== undefined && turn.text !== "") {
    const half = Math.ceil(turn.text.length / 2);
    add("text", "contentBlockDelta", { contentBlockIndex: index, delta: { text: turn.text.slice(0, half) } });
    if (half < turn.text.length) {
      add("text", "contentBlockDelta", { contentBlockIndex: index, delta: { text: turn.text.slice(half) } });
    }
    add("stop", "contentBlockStop", { contentBlockIndex: index });
    index++;
  }
  for (const call of turn.toolCalls ?? []) {
    const json = JSON.stringify(call.input);
    const half = Math.ceil(json.length / 2);
    add("tool", "contentBlockStart", {
      contentBlockIndex: index,
      start: { toolUse: { toolUseId: call.id, name: call.name } },
    });
    add("input", "contentBlockDelta", {
      contentBlockIndex: index,
      delta: { toolUse: { input: json.slice(0, half) } },
    });
    add("input", "contentBlockDelta", {
      contentBlockIndex: index,
      delta: { toolUse: { input: json.slice(half) } },
    });
    add("stop", "contentBlockStop", { contentBlockIndex: index });
    index++;
  }
  add("messageStop", "messageStop", { stopReason: stopReasonOf(turn) });
  const usage = turn.usage ?? USAGE;
  add("metadata", "metadata", {
    usage: { ...usage, totalTokens: usage.inputTokens + usage.outputTokens },
    metrics: { latencyMs: 12 },
  });
  return frames;
}

/** The byte offset just after the first frame of `kind`. */
function after(frames: readonly { kind: string; bytes: Uint8Array }[], kind: string): number {
  let offset = 0;
  for (const frame of frames) {
    offset += frame.bytes.length;
    if (frame.kind === kind) return offset;
  }
  throw new Error(`no ${kind} frame in the scripted answer`);
}

/** Frame boundaries (streaming) or eight even pieces (JSON). */
function pieces(frames: readonly { bytes: Uint8Array }[] | undefined, length: number): number[] {
  if (frames === undefined) return Array.from({ length: 7 }, (_, i) => Math.floor(((i + 1) * length) / 8));
  const cuts: number[] = [];
  let offset = 0;
  for (const frame of frames) {
    offset += frame.bytes.length;
    cuts.push(offset);
  }
  return cuts;
}

function withInsert(body: Buffer, at: number, frame: Uint8Array): Buffer {
  return Buffer.concat([body.subarray(0, at), frame, body.subarray(at)]);
}

/** What a local Converse server answers for one turn, in the caller's mode, with its fault applied. */
export function converseAnswer({
  turn,
  stream,
  fault,
}: {
  turn: ConverseTurn;
  stream: boolean;
  fault?: ConverseFault | undefined;
}): ScriptedResponse {
  const frames = stream ? converseFrames(turn) : undefined;
  const body =
    frames !== undefined ? Buffer.concat(frames.map((f) => f.bytes)) : Buffer.from(converseJson(turn));
  const contentType = stream ? "application/vnd.amazon.eventstream" : "application/json";
  const ok: ScriptedResponse = { body, contentType };
  switch (fault?.type) {
    case undefined:
      return ok;
    case "status":
      return {
        status: fault.status,
        contentType: "application/json",
        body: JSON.stringify({ message: `${fault.errorType}: status ${fault.status}` }),
        headers: {
          "x-amzn-errortype": `${fault.errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
          ...(fault.retryAfter !== undefined && { "retry-after": fault.retryAfter }),
        },
      };
    case "reset-before-headers":
      return { destroy: true };
    case "hang":
      return { hang: true };
    case "drop-after-text":
      return { ...ok, destroyAfterBytes: frames ? after(frames, "text") : Math.floor(body.length / 2) };
    case "drop-in-arguments":
      return { ...ok, destroyAfterBytes: after(frames ?? [], "input") };
    case "end-before-stop":
      return {
        ...ok,
        body: body.subarray(0, after(frames ?? [], "messageStop") - (frames?.at(-2)?.bytes.length ?? 0)),
      };
    case "corrupt-frame-after-text": {
      const frame = Buffer.from(
        bedrockEventFrame("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "!" } }),
      );
      frame[frame.length - 8] = (frame[frame.length - 8] as number) ^ 0xff;
      return { ...ok, body: withInsert(body, after(frames ?? [], "text"), frame) };
    }
    case "exception-after-text": {
      const frame = bedrockExceptionFrame(fault.exceptionType, fault.message);
      return { ...ok, body: Buffer.concat([body.subarray(0, after(frames ?? [], "text")), frame]) };
    }
    case "slow_drip":
      return { ...ok, splitAt: pieces(frames, body.length), writeDelayMs: fault.intervalMs };
  }
}
