import type { RunInput } from "../models/normalize-content.js";

/** What a run request's JSON body asks for. */
export interface RunRequest {
  input: RunInput;
  sessionId?: string;
  runId?: string;
}

/** The body limit of a run request, by default (bytes). */
export const DEFAULT_MAX_BODY_BYTES = 1_000_000;

/** A JSON error response: `{ error: { name, message } }`. */
export function jsonError(
  status: number,
  name: string,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ error: { name, message } }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/**
 * Reads a run request's body: JSON (`content-type: application/json`, which also makes a cross-site form post
 * impossible) of at most `maxBytes` bytes, `{ input, sessionId?, runId? }` (other fields are ignored). An error
 * response (400, 413 or 415) when it is not that.
 */
export async function readRunRequest(request: Request, maxBytes: number): Promise<RunRequest | Response> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return jsonError(415, "UnsupportedMediaType", "expected a JSON body (content-type: application/json)");
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  const tooLarge = () => jsonError(413, "PayloadTooLarge", `the body is larger than ${maxBytes} bytes`);
  if (declared > maxBytes) return tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body !== null) {
    const reader = request.body.getReader();
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return tooLarge();
      }
      chunks.push(value);
    }
  }
  let body: unknown;
  try {
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return jsonError(400, "InvalidArgumentError", "the body is not valid JSON");
  }
  return checkRunRequest(body);
}

function checkRunRequest(body: unknown): RunRequest | Response {
  const invalid = (message: string) => jsonError(400, "InvalidArgumentError", message);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return invalid('expected a JSON object: { "input": ..., "sessionId"?: ..., "runId"?: ... }');
  }
  const { input, sessionId, runId } = body as Record<string, unknown>;
  for (const [name, value] of [
    ["sessionId", sessionId],
    ["runId", runId],
  ] as const) {
    if (value !== undefined && (typeof value !== "string" || value === "" || value.length > 256)) {
      return invalid(`"${name}" must be a non-empty string of at most 256 characters`);
    }
  }
  const resuming = runId !== undefined;
  const text = typeof input === "string";
  if (!(text || Array.isArray(input) || (resuming && input === undefined))) {
    return invalid('"input" must be a string or an array of content parts');
  }
  if (!resuming && (text ? input === "" : (input as unknown[]).length === 0)) {
    return invalid('"input" is empty');
  }
  const request: RunRequest = { input: (input ?? "") as RunInput };
  if (sessionId !== undefined) request.sessionId = sessionId as string;
  if (runId !== undefined) request.runId = runId as string;
  return request;
}
