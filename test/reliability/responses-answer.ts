import type { ScriptedResponse } from "../../src/providers/openai/test-utils/fixture-server.js";
import type { Turn } from "./fault-backends.js";

// One model turn as the OpenAI Responses API sends it (an SSE stream of `response.*` events, or the final
// response object as JSON), and the faults of the fault suite expressed as what the byte-level fixture server
// does with that body.

/** How a Responses answer breaks (see {@link responsesAnswer}). */
export type ResponsesFault =
  | { type: "status"; status: number; retryAfter?: string }
  | { type: "reset-before-headers" }
  | { type: "hang" }
  /** Streaming: the socket drops right after the first text delta (run mode: half-way through the JSON). */
  | { type: "drop-after-text" }
  /** Streaming: the socket drops inside the function call's argument deltas. */
  | { type: "drop-in-arguments" }
  /** Streaming: the body ends cleanly before `response.completed`. */
  | { type: "end-before-completed" }
  /** Streaming: a data line that is not JSON after the first text delta. */
  | { type: "malformed-after-text" }
  /** Streaming: an `error` event (`server_error`, retryable) after the first text delta. */
  | { type: "error-event-after-text" }
  /** Every event (run mode: eight pieces of the JSON) written `intervalMs` apart. */
  | { type: "slow_drip"; intervalMs: number };

const usage = { input_tokens: 40, output_tokens: 10, total_tokens: 50 };

function outputOf(turn: Turn): Record<string, unknown>[] {
  const text = "lookup" in turn ? "Checking." : turn.text;
  const message = {
    type: "message",
    id: "msg_1",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text, annotations: [] }],
  };
  if (!("lookup" in turn)) return [message];
  const call = {
    type: "function_call",
    id: "fc_1",
    call_id: `call_${turn.lookup}`,
    name: "lookup",
    arguments: JSON.stringify({ word: turn.lookup }),
    status: "completed",
  };
  return [message, call];
}

function sseOf(turn: Turn): string {
  const output = outputOf(turn);
  const events: Record<string, unknown>[] = [
    { type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] } },
  ];
  output.forEach((item, index) => {
    if (item.type === "message") {
      const text = (item.content as Array<{ text: string }>)[0]?.text ?? "";
      events.push(
        { type: "response.output_item.added", output_index: index, item: { ...item, content: [] } },
        {
          type: "response.output_text.delta",
          item_id: "msg_1",
          output_index: index,
          content_index: 0,
          delta: text,
        },
      );
    } else {
      const args = String(item.arguments);
      const half = Math.ceil(args.length / 2);
      events.push(
        { type: "response.output_item.added", output_index: index, item: { ...item, arguments: "" } },
        {
          type: "response.function_call_arguments.delta",
          item_id: "fc_1",
          output_index: index,
          delta: args.slice(0, half),
        },
        {
          type: "response.function_call_arguments.delta",
          item_id: "fc_1",
          output_index: index,
          delta: args.slice(half),
        },
        {
          type: "response.function_call_arguments.done",
          item_id: "fc_1",
          output_index: index,
          arguments: args,
        },
      );
    }
    events.push({ type: "response.output_item.done", output_index: index, item });
  });
  events.push({ type: "response.completed", response: { id: "resp_1", status: "completed", output, usage } });
  return events
    .map(
      (event, n) =>
        `event: ${String(event.type)}\ndata: ${JSON.stringify({ ...event, sequence_number: n })}\n\n`,
    )
    .join("");
}

/** The byte offset just after the event that contains `marker` (the end of its blank line). */
function after(body: string, marker: string): number {
  const at = body.indexOf(marker);
  if (at < 0) throw new Error(`no ${marker} in the scripted body`);
  return Buffer.byteLength(body.slice(0, body.indexOf("\n\n", at) + 2));
}

/** Offsets of every event boundary of an SSE body (or eight even pieces of a JSON body). */
function pieces(body: string, stream: boolean): number[] {
  const bytes = Buffer.byteLength(body);
  if (!stream) return Array.from({ length: 7 }, (_, i) => Math.floor(((i + 1) * bytes) / 8));
  const cuts: number[] = [];
  for (let at = body.indexOf("\n\n"); at >= 0; at = body.indexOf("\n\n", at + 2)) {
    cuts.push(Buffer.byteLength(body.slice(0, at + 2)));
  }
  return cuts;
}

/** What the fixture server answers for one turn, in the agent's mode, with its fault applied. */
export function responsesAnswer({
  turn,
  stream,
  fault,
}: {
  turn: Turn;
  stream: boolean;
  fault: ResponsesFault | undefined;
}): ScriptedResponse {
  const body = stream
    ? sseOf(turn)
    : JSON.stringify({
        id: "resp_1",
        object: "response",
        status: "completed",
        output: outputOf(turn),
        usage,
      });
  const ok: ScriptedResponse = stream ? { body } : { body, contentType: "application/json" };
  switch (fault?.type) {
    case undefined:
      return ok;
    case "status":
      return {
        status: fault.status,
        body: JSON.stringify({
          error: { message: `status ${fault.status}`, type: "server_error", code: null },
        }),
        ...(fault.retryAfter !== undefined && { headers: { "retry-after": fault.retryAfter } }),
      };
    case "reset-before-headers":
      return { destroy: true };
    case "hang":
      return { hang: true };
    case "drop-after-text":
      return {
        ...ok,
        destroyAfterBytes: stream ? after(body, "output_text.delta") : Math.floor(body.length / 2),
      };
    case "drop-in-arguments":
      return { ...ok, destroyAfterBytes: after(body, "function_call_arguments.delta") };
    case "end-before-completed":
      return { ...ok, body: body.slice(0, body.indexOf("event: response.completed")) };
    case "malformed-after-text": {
      const cut = body.indexOf("\n\n", body.indexOf("output_text.delta")) + 2;
      return { ...ok, body: `${body.slice(0, cut)}data: {not json\n\n${body.slice(cut)}` };
    }
    case "error-event-after-text": {
      const cut = body.indexOf("\n\n", body.indexOf("output_text.delta")) + 2;
      const error =
        'event: error\ndata: {"type":"error","code":"server_error","message":"The server had an error"}\n\n';
      return { ...ok, body: `${body.slice(0, cut)}${error}` };
    }
    case "slow_drip":
      return { ...ok, splitAt: pieces(body, stream), writeDelayMs: fault.intervalMs };
  }
}
