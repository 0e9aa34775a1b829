import { SseReader } from "./sse-reader.js";
import type { AgentEvent, RunResultSummary } from "./types.js";

/** The header the server wants the per-launch token in. */
const TOKEN_HEADER = "x-agentloop-token";

/** An API failure: the HTTP status and the server's message. */
export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
}

/** What a run stream reports, as it arrives. */
export interface RunStreamHandlers {
  onEvent(event: AgentEvent): void;
  onResult(result: RunResultSummary): void;
  onError(error: { name: string; message: string }): void;
}

/** Calls the dev server's API with the per-launch token. */
export class Api {
  private readonly token: string;

  constructor(token: string) {
    this.token = token;
  }

  private async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set(TOKEN_HEADER, this.token);
    const response = await fetch(`/api${path}`, { ...init, headers });
    if (!response.ok) {
      let message = `${response.status} ${response.statusText}`;
      try {
        const body = (await response.json()) as { error?: { message?: string } };
        if (body.error?.message) message = body.error.message;
      } catch {
        // Not JSON: keep the status line.
      }
      throw new ApiError(response.status, message);
    }
    return response;
  }

  /** GETs JSON. */
  async get<T>(path: string): Promise<T> {
    return (await (await this.request(path)).json()) as T;
  }

  /** POSTs JSON and reads JSON. */
  async post<T>(path: string, body: unknown = {}): Promise<T> {
    const response = await this.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return (await response.json()) as T;
  }

  /**
   * POSTs JSON and reads the answer as an agentloop SSE run stream (`data:` messages are events, then
   * `event: result` or `event: error`). Resolves when the stream ends.
   */
  async stream(path: string, body: unknown, handlers: RunStreamHandlers): Promise<void> {
    const response = await this.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify(body),
    });
    if (response.body === null) throw new ApiError(500, "the run stream has no body");
    const reader = new SseReader();
    const decoder = new TextDecoder();
    const body$ = response.body.getReader();
    let ended = false;
    const deliver = (text: string): void => {
      for (const message of reader.push(text)) {
        const data = JSON.parse(message.data) as unknown;
        if (message.event === "message") handlers.onEvent(data as AgentEvent);
        else if (message.event === "result") {
          ended = true;
          handlers.onResult(data as RunResultSummary);
        } else if (message.event === "error") {
          ended = true;
          handlers.onError(data as { name: string; message: string });
        }
      }
    };
    while (true) {
      const { done, value } = await body$.read();
      if (done) break;
      deliver(decoder.decode(value, { stream: true }));
    }
    deliver(`${decoder.decode()}\n\n`);
    if (!ended) handlers.onError({ name: "StreamEnded", message: "the run stream ended without a result" });
  }
}
