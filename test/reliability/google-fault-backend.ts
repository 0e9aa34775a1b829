import { createGoogle } from "../../src/providers/google/create-google.js";
import type { GoogleWirePart } from "../../src/providers/google/google-wire-types.js";
import {
  type ScriptedResponse,
  startFixtureServer,
} from "../../src/providers/openai/test-utils/fixture-server.js";
import type { Backend, Turn } from "./fault-backends.js";

// The Gemini API in the fault suite: one model turn as `generateContent` sends it (JSON) or as
// `streamGenerateContent?alt=sse` does (SSE chunks ended by CRLF, the finishReason on the last), and the faults
// expressed as what the byte-level fixture server does with that body. The bodies are SYNTHETIC, in the shape
// of the recorded ones (test/fixtures/recorded/google-gemini).

/** How a Gemini answer breaks (see {@link googleAnswer}). */
export type GoogleFault =
  /** An error status with a `google.rpc.Status` body; a 429 carries a `RetryInfo` delay (and no header). */
  | { type: "status"; status: number }
  | { type: "reset-before-headers" }
  | { type: "hang" }
  /** Streaming: the socket drops right after the first text chunk (run mode: half-way through the JSON). */
  | { type: "drop-after-text" }
  /** Streaming: the body ends cleanly before any chunk with a `finishReason`. */
  | { type: "end-before-finish" }
  /** Streaming: a data line that is not JSON after the first text chunk. */
  | { type: "malformed-after-text" }
  /** Streaming: an `UNAVAILABLE` error object after the first text chunk. */
  | { type: "error-after-text" }
  /** Every chunk (run mode: eight pieces of the JSON) written `intervalMs` apart. */
  | { type: "slow_drip"; intervalMs: number };

const STATUS_NAMES: Readonly<Record<number, string>> = {
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

function partsOf(turn: Turn): GoogleWirePart[] {
  if (!("lookup" in turn)) return [{ text: turn.text }];
  return [{ text: "Checking." }, { functionCall: { name: "lookup", args: { word: turn.lookup } } }];
}

const usage = { promptTokenCount: 40, candidatesTokenCount: 10, totalTokenCount: 50 };

/** One response (or chunk) with one candidate; real response ids differ per answer, so call ids do too. */
function responseOf(turn: Turn, parts: GoogleWirePart[], last: boolean): Record<string, unknown> {
  return {
    candidates: [{ content: { role: "model", parts }, ...(last && { finishReason: "STOP" }), index: 0 }],
    usageMetadata: last ? usage : { promptTokenCount: 40, totalTokenCount: 40 },
    modelVersion: "gemini-2.5-flash",
    responseId: "lookup" in turn ? `resp-${turn.lookup}` : "resp-text",
  };
}

function sseOf(turn: Turn): string {
  const parts = partsOf(turn);
  return parts
    .map((part, i) => `data: ${JSON.stringify(responseOf(turn, [part], i === parts.length - 1))}\r\n\r\n`)
    .join("");
}

/** The byte offset just after the first event (the end of its `\r\n\r\n`). */
function afterFirstEvent(body: string): number {
  return Buffer.byteLength(body.slice(0, body.indexOf("\r\n\r\n") + 4));
}

/** Offsets of every event boundary of an SSE body (or eight even pieces of a JSON body). */
function pieces(body: string, stream: boolean): number[] {
  const bytes = Buffer.byteLength(body);
  if (!stream) return Array.from({ length: 7 }, (_, i) => Math.floor(((i + 1) * bytes) / 8));
  const cuts: number[] = [];
  for (let at = body.indexOf("\r\n\r\n"); at >= 0; at = body.indexOf("\r\n\r\n", at + 4)) {
    cuts.push(Buffer.byteLength(body.slice(0, at + 4)));
  }
  return cuts;
}

function statusBody(status: number): string {
  const name = STATUS_NAMES[status] ?? "UNKNOWN";
  const details =
    status === 429 ? [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "0.01s" }] : [];
  return JSON.stringify({
    error: { code: status, message: `${name} (status ${status})`, status: name, details },
  });
}

/** What the fixture server answers for one turn, in the agent's mode, with its fault applied. */
export function googleAnswer({
  turn,
  stream,
  fault,
}: {
  turn: Turn;
  stream: boolean;
  fault: GoogleFault | undefined;
}): ScriptedResponse {
  const body = stream ? sseOf(turn) : JSON.stringify(responseOf(turn, partsOf(turn), true));
  const ok: ScriptedResponse = stream ? { body } : { body, contentType: "application/json" };
  const cut = stream ? afterFirstEvent(body) : 0;
  switch (fault?.type) {
    case undefined:
      return ok;
    case "status":
      return { status: fault.status, body: statusBody(fault.status) };
    case "reset-before-headers":
      return { destroy: true };
    case "hang":
      return { hang: true };
    case "drop-after-text":
      return { ...ok, destroyAfterBytes: stream ? cut : Math.floor(body.length / 2) };
    case "end-before-finish":
      return { ...ok, body: body.slice(0, body.lastIndexOf("data: ")) };
    case "malformed-after-text":
      return { ...ok, body: `${body.slice(0, cut)}data: {not json\r\n\r\n${body.slice(cut)}` };
    case "error-after-text":
      return { ...ok, body: `${body.slice(0, cut)}data: ${statusBody(503)}\r\n\r\n` };
    case "slow_drip":
      return { ...ok, splitAt: pieces(body, stream), writeDelayMs: fault.intervalMs };
  }
}

/** The Gemini API (`createGoogle()`) behind the byte-level fixture server. */
export const googleBackend: Backend = {
  name: "google",
  async start({ answers, timeoutMs, maxRetries, stream }) {
    const server = await startFixtureServer(
      answers.map((answer) =>
        googleAnswer({
          turn: answer.turn,
          stream,
          fault: answer.fault !== undefined && "google" in answer.fault ? answer.fault.google : undefined,
        }),
      ),
    );
    const provider = createGoogle({
      baseURL: server.baseURL,
      apiKey: "test-key",
      timeoutMs,
      retry: { baseDelayMs: 1, maxRetries },
    });
    return {
      model: provider("gemini-2.5-flash"),
      requestCount: () => server.requests.length,
      requestBody: (index) => server.requests[index]?.rawBody ?? "",
      close: () => server.close(),
    };
  },
};
