import { RunStreamError } from "../errors/run-stream-error.js";

/** Options of {@link openRunConnection}. */
export interface OpenRunConnectionOptions {
  url: string;
  fetch: typeof globalThis.fetch;
  /** The JSON body. */
  body: Record<string, unknown>;
  headers: Record<string, string>;
  /** The `Last-Event-ID` to send (a reconnect). */
  lastEventId: string | undefined;
  /** The most ms to wait for the response headers. */
  timeoutMs: number;
  /** Aborts the request (the caller's signal, or the end of the reading). */
  controller: AbortController;
}

/** The most characters of an error response read for the error message. */
const MAX_ERROR_BODY_CHARS = 2_000;

/**
 * POSTs a run request and waits for an SSE response: rejects with {@link RunStreamError} for an error status
 * (`http`), a response that is not `text/event-stream` (`malformed`), or no headers within `timeoutMs`
 * (`timeout`); a failed fetch rejects as it did (the caller classifies it).
 */
export async function openRunConnection(options: OpenRunConnectionOptions): Promise<Response> {
  const { url, controller, timeoutMs } = options;
  const timer = setTimeout(() => {
    const message = `no response from ${url} within ${timeoutMs} ms`;
    controller.abort(new RunStreamError({ kind: "timeout", message, url }));
  }, timeoutMs);
  try {
    const headers: Record<string, string> = {
      ...options.headers,
      accept: "text/event-stream",
      "content-type": "application/json",
    };
    if (options.lastEventId !== undefined) headers["last-event-id"] = options.lastEventId;
    const { fetch } = options; // called unbound: a browser's fetch refuses another `this`
    const response = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify(options.body),
      signal: controller.signal,
    });
    if (!response.ok) throw await httpError(response, url);
    const type = response.headers.get("content-type") ?? "";
    if (!/^text\/event-stream\s*(;|$)/i.test(type) || response.body === null) {
      await response.body?.cancel().catch(() => undefined);
      const message = `${url} did not answer with an event stream (content-type: ${type.slice(0, 60) || "none"})`;
      throw new RunStreamError({ kind: "malformed", message, url });
    }
    return response;
  } catch (error) {
    const reason: unknown = controller.signal.reason;
    throw controller.signal.aborted && RunStreamError.isInstance(reason) ? reason : error;
  } finally {
    clearTimeout(timer);
  }
}

/** The error of an error status, with the server's `{ error: { name, message } }` when it sent one. */
async function httpError(response: Response, url: string): Promise<RunStreamError> {
  const text = await readPrefix(response, MAX_ERROR_BODY_CHARS).catch(() => "");
  let errorName: string | undefined;
  let detail = text.trim();
  try {
    const parsed = JSON.parse(text) as { error?: { name?: unknown; message?: unknown } };
    if (typeof parsed.error?.message === "string") detail = parsed.error.message;
    if (typeof parsed.error?.name === "string") errorName = parsed.error.name;
  } catch {
    // not JSON: the text is the detail
  }
  const message = `${url} answered ${response.status}${detail === "" ? "" : `: ${detail.slice(0, 300)}`}`;
  return new RunStreamError({ kind: "http", status: response.status, errorName, message, url });
}

/** The first `maxChars` characters of a body (the rest is not read). */
async function readPrefix(response: Response, maxChars: number): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < maxChars) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text.slice(0, maxChars);
}
