// A local model server speaking a real provider's wire format (OpenAI Chat Completions or Anthropic Messages),
// for the multi-agent end-to-end tests. The shapes are those of the recordings in test/fixtures/recorded/
// (openai-chat/stream-tool-call.sse, nonstream-tool-call.json; anthropic-messages/stream-tool-use.sse,
// nonstream-text.json): SSE when the request says `stream: true`, else one JSON body. Which answer a request
// gets is scripted by the test from the request (the agent's system prompt and its turn); the server logs
// every request, the usage it reported, and the responses a client closed before their end.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Wire = "openai" | "anthropic";

/** One scripted answer: text (streamed in these pieces), tool calls, the usage to report. */
export interface Step {
  text?: string[];
  toolCalls?: Array<{ id: string; name: string; arguments: Record<string, unknown> }>;
  usage: { input: number; output: number };
  /** Streaming only: after the first text piece, wait for this before sending the rest. */
  holdAfterFirstDelta?: Promise<void>;
}

/** What the responder knows of a request: the agent's system prompt, its turn (assistant messages so far). */
export interface WireRequest {
  system: string;
  turn: number;
  model: string;
  tools: string[];
  stream: boolean;
  /** The request's messages (in the provider's shape). */
  messages: Array<{ role: string; content: unknown }>;
  body: Record<string, unknown>;
}

/** What the server saw of one request. */
export interface Served extends WireRequest {
  /** The usage reported (undefined when no answer was scripted: HTTP 400). */
  usage?: Step["usage"];
  /** The client closed the connection before the response ended. */
  aborted: boolean;
}

export interface WireServer {
  url: string;
  served: Served[];
  /** Resolves at the next response a client closes before its end. */
  nextAbort(): Promise<Served>;
  close(): Promise<void>;
}

type Event = { event?: string; data: unknown };

const text = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((part: { text?: string }) => part.text ?? "").join("")
      : "";

function describeRequest(wire: Wire, body: Record<string, unknown>): WireRequest {
  const messages = (body.messages ?? []) as Array<{ role: string; content: unknown }>;
  const tools = ((body.tools ?? []) as Array<{ name?: string; function?: { name: string } }>).map(
    (t) => t.function?.name ?? t.name ?? "",
  );
  const system =
    wire === "anthropic" ? text(body.system) : text(messages.find((m) => m.role === "system")?.content);
  const turn = messages.filter((m) => m.role === "assistant").length;
  return { system, turn, model: String(body.model), tools, stream: body.stream === true, messages, body };
}

function openaiEvents(step: Step, model: string): Event[] {
  const base = { id: "chatcmpl-mock", object: "chat.completion.chunk", created: 1727346182, model };
  const chunk = (delta: object, finish: string | null = null) => ({
    data: { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] },
  });
  const events = [chunk({ role: "assistant", content: step.toolCalls ? null : "", refusal: null })];
  for (const piece of step.text ?? []) events.push(chunk({ content: piece }));
  (step.toolCalls ?? []).forEach((call, index) => {
    const head = { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } };
    events.push(chunk({ tool_calls: [head] }));
    const args = JSON.stringify(call.arguments);
    for (const part of [args.slice(0, 5), args.slice(5)])
      events.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
  });
  events.push(chunk({}, step.toolCalls ? "tool_calls" : "stop"));
  const { input, output } = step.usage;
  const usage = { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
  return [...events, { data: { ...base, choices: [], usage } }, { data: "[DONE]" }];
}

function openaiJson(step: Step, model: string): object {
  const toolCalls = step.toolCalls?.map((c) => ({
    id: c.id,
    type: "function",
    function: { name: c.name, arguments: JSON.stringify(c.arguments) },
  }));
  const message = { role: "assistant", content: step.text?.join("") ?? null, tool_calls: toolCalls };
  const { input, output } = step.usage;
  return {
    id: "chatcmpl-mock",
    object: "chat.completion",
    created: 1747163251,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: toolCalls ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
  };
}

function anthropicEvents(step: Step, model: string): Event[] {
  const e = (data: { type: string } & Record<string, unknown>): Event => ({ event: data.type, data });
  const usage = {
    input_tokens: step.usage.input,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  const message = {
    id: "msg_mock",
    type: "message",
    role: "assistant",
    model,
    content: [],
    stop_reason: null,
  };
  const events = [
    e({ type: "message_start", message: { ...message, usage: { ...usage, output_tokens: 1 } } }),
  ];
  let index = 0;
  if (step.text !== undefined) {
    events.push(e({ type: "content_block_start", index, content_block: { type: "text", text: "" } }));
    for (const piece of step.text)
      events.push(e({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } }));
    events.push(e({ type: "content_block_stop", index: index++ }));
  }
  for (const call of step.toolCalls ?? []) {
    const block = { type: "tool_use", id: call.id, name: call.name, input: {} };
    events.push(e({ type: "content_block_start", index, content_block: block }));
    const json = JSON.stringify(call.arguments);
    for (const part of ["", json.slice(0, 7), json.slice(7)])
      events.push(
        e({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: part } }),
      );
    events.push(e({ type: "content_block_stop", index: index++ }));
  }
  const stop_reason = step.toolCalls ? "tool_use" : "end_turn";
  events.push(
    e({
      type: "message_delta",
      delta: { stop_reason, stop_sequence: null },
      usage: { output_tokens: step.usage.output },
    }),
  );
  return [...events, e({ type: "message_stop" })];
}

function anthropicJson(step: Step, model: string): object {
  const content = [
    ...(step.text === undefined ? [] : [{ type: "text", text: step.text.join("") }]),
    ...(step.toolCalls ?? []).map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.arguments })),
  ];
  return {
    model,
    id: "msg_mock",
    type: "message",
    role: "assistant",
    content,
    stop_reason: step.toolCalls ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: step.usage.input,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: step.usage.output,
    },
  };
}

const sse = ({ event, data }: Event) =>
  `${event === undefined ? "" : `event: ${event}\n`}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

async function answer(wire: Wire, req: WireRequest, step: Step, res: ServerResponse): Promise<void> {
  if (!req.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(wire === "openai" ? openaiJson(step, req.model) : anthropicJson(step, req.model)));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const events = wire === "openai" ? openaiEvents(step, req.model) : anthropicEvents(step, req.model);
  let deltas = 0;
  for (const event of events) {
    if (res.destroyed) return;
    res.write(sse(event));
    const data = event.data as {
      choices?: Array<{ delta?: { content?: unknown } }>;
      delta?: { type?: string };
    };
    const content = data.choices?.[0]?.delta?.content;
    const isDelta = (typeof content === "string" && content !== "") || data.delta?.type === "text_delta";
    if (isDelta && ++deltas === 1 && step.holdAfterFirstDelta !== undefined) await step.holdAfterFirstDelta;
    await new Promise((resolve) => setImmediate(resolve));
  }
  res.end();
}

/**
 * Starts a server on 127.0.0.1 speaking `wire`; `respond` picks each request's answer (undefined: HTTP 400, a
 * request the script did not expect, which no provider client retries).
 */
export async function startWireServer(options: {
  wire: Wire;
  respond: (request: WireRequest) => Step | undefined;
}): Promise<WireServer> {
  const served: Served[] = [];
  const waiting: Array<(served: Served) => void> = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const request = describeRequest(options.wire, JSON.parse(raw) as Record<string, unknown>);
    const step = options.respond(request);
    const entry: Served = { ...request, aborted: false, ...(step && { usage: step.usage }) };
    served.push(entry);
    res.on("close", () => {
      if (res.writableFinished) return;
      entry.aborted = true;
      for (const resolve of waiting.splice(0)) resolve(entry);
    });
    if (step === undefined) {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { type: "invalid_request_error", message: "unscripted request" } }));
      return;
    }
    await answer(options.wire, request, step, res);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    served,
    nextAbort: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A responder from a script: `steps[system][turn]`. A request asked twice (same agent, same turn) gets no
 * answer the second time and is listed in `repeated`.
 */
export function scripted(steps: Record<string, Array<Step | undefined>>) {
  const seen = new Set<string>();
  const repeated: string[] = [];
  const respond = ({ system, turn }: WireRequest): Step | undefined => {
    const key = `${system}#${turn}`;
    if (seen.has(key)) {
      repeated.push(key);
      return undefined;
    }
    seen.add(key);
    return steps[system]?.[turn];
  };
  return { respond, repeated };
}
