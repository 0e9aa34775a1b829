import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { durableStream, type StreamingAgent } from "./durable-stream.js";
import { DEFAULT_MAX_BODY_BYTES, jsonError, readRunRequest } from "./read-run-request.js";
import type { SSEStreamOptions } from "./sse-stream-options.js";
import { toSSEResponse } from "./to-sse-response.js";

/** An agent a handler runs: `stream`, and its options (a `journal` makes its runs durable by default). */
export interface HandlerAgent extends StreamingAgent {
  readonly options: { readonly journal?: unknown };
}

/** Options of {@link createAgentHandler}. */
export interface AgentHandlerOptions extends Pick<SSEStreamOptions, "heartbeatMs" | "log" | "headers"> {
  /** The largest request body accepted, in bytes (413 beyond). Default 1 000 000. */
  maxBodyBytes?: number;
  /**
   * Give each new run a run id (`crypto.randomUUID()`) when the request names none, so it is durable: a client
   * that loses its connection reconnects to it. Default: true when the agent has a `journal`.
   */
  durable?: boolean;
}

/**
 * A fetch-style request handler that runs `agent` and streams it as server-sent events (`toSSEResponse`): for
 * Next.js route handlers, Hono, Bun, Deno, edge runtimes. It takes a `POST` with a JSON body
 * `{ input, sessionId?, runId? }` (what `streamRun` of `agentloop/client` sends) and the `Last-Event-ID`
 * header of a reconnect. A durable run (a `runId`, given or made: see `durable`) is served by `durableStream`:
 * the client that reconnects gets what it missed. Bad requests get a JSON `{ error: { name, message } }`: 405
 * (not a POST), 415 (not JSON), 413 (too large), 400 (invalid fields, a `Last-Event-ID` without a run id).
 *
 * ```ts
 * const handler = createAgentHandler(agent);
 * export const POST = handler; // Next.js: app/api/agent/route.ts
 * ```
 *
 * It trusts the `sessionId` and `runId` the client sends: behind authentication, check them (or map them to
 * your users' ids) in a handler of your own around `durableStream` / `toSSEResponse`.
 */
export function createAgentHandler(
  agent: HandlerAgent,
  options: AgentHandlerOptions = {},
): (request: Request) => Promise<Response> {
  const { maxBodyBytes = DEFAULT_MAX_BODY_BYTES, heartbeatMs, log, headers } = options;
  if (!(Number.isSafeInteger(maxBodyBytes) && maxBodyBytes > 0)) {
    throw new InvalidArgumentError({
      argument: "maxBodyBytes",
      message: "expected a whole number of bytes > 0",
    });
  }
  const durable = options.durable ?? agent.options.journal !== undefined;
  const sse = { heartbeatMs, log, headers };
  return async (request) => {
    if (request.method !== "POST")
      return jsonError(405, "MethodNotAllowed", "expected POST", { allow: "POST" });
    const body = await readRunRequest(request, maxBodyBytes);
    if (body instanceof Response) return body;
    const { input, sessionId } = body;
    const lastEventId = request.headers.get("last-event-id");
    if (lastEventId !== null && body.runId === undefined) {
      return jsonError(400, "InvalidArgumentError", "Last-Event-ID resumes a durable run: send its runId");
    }
    try {
      const runId = body.runId ?? (durable ? globalThis.crypto.randomUUID() : undefined);
      if (runId !== undefined) {
        return toSSEResponse(durableStream({ agent, runId, input, sessionId, lastEventId, log }), sse);
      }
      return toSSEResponse(agent.stream(input, sessionId === undefined ? {} : { sessionId }), {
        ...sse,
        sessionId,
      });
    } catch (error) {
      if (!InvalidArgumentError.isInstance(error)) throw error;
      return jsonError(400, error.name, error.message);
    }
  };
}
