import type { IncomingMessage, ServerResponse } from "node:http";
import type { Agent } from "../agent.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { SessionBusyError } from "../errors/session-busy-error.js";
import { TraceError } from "../errors/trace-error.js";
import { pipeToNodeResponse } from "../web/pipe-to-node-response.js";
import type { AgentLoadState } from "./agent-loader.js";
import { type DevRuns, isDevId } from "./dev-runs.js";
import { type DevTraces, MAX_TRACE_UPLOAD_BYTES } from "./dev-traces.js";
import { readJsonBody } from "./read-request-body.js";

/** The longest chat message the dev server takes, in characters. */
export const MAX_DEV_INPUT_CHARS = 100_000;

/** What the API handlers work with. */
export interface DevApiContext {
  /** The agent now (the last good load of the file, or the demo agent) and the last load error. */
  agentState(): AgentLoadState;
  /** Describes where the agent comes from, for `/api/info`. */
  source: { kind: "file"; file: string } | { kind: "demo"; notice: string };
  runs: DevRuns;
  traces: DevTraces;
  /** Where sessions, runs and traces are kept (for `/api/info`). */
  workspace: string;
  heartbeatMs?: number;
}

/** Options of {@link handleDevApi}. */
export interface HandleDevApiOptions {
  request: IncomingMessage;
  response: ServerResponse;
  /** The path after `/api` (`/info`, `/runs/<id>/resume`, …), decoded segments. */
  segments: string[];
  context: DevApiContext;
}

/** Sends `value` as JSON with `status`. */
export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  response.end(body);
}

/** Sends `{ error: { name, message } }` with `status`. */
export function sendError(response: ServerResponse, status: number, message: string, name = "Error"): void {
  sendJson(response, status, { error: { name, message } });
}

function describeAgent(agent: Agent) {
  return {
    name: agent.options.name ?? "agent",
    model: `${agent.model.provider}:${agent.model.modelId}`,
    system: agent.system ?? null,
    tools: agent.tools.list().map((tool) => ({
      name: tool.name,
      description: tool.description,
      needsApproval: typeof tool.needsApproval === "function" ? "sometimes" : tool.needsApproval,
    })),
    store: agent.options.store === undefined ? "workspace" : "agent",
    journal: agent.options.journal === undefined ? "workspace" : "agent",
  };
}

function info(context: DevApiContext) {
  const state = context.agentState();
  return {
    source: context.source,
    workspace: context.workspace,
    version: state.version,
    loadedAt: state.loadedAt ?? null,
    error: state.error ?? null,
    agent: state.agent === undefined ? null : describeAgent(state.agent),
  };
}

/** The agent, or a 503 answer naming why there is none. */
function agentOr503(context: DevApiContext, response: ServerResponse): Agent | undefined {
  const { agent, error } = context.agentState();
  if (agent === undefined) {
    sendError(response, 503, error?.message ?? "the agent is not loaded yet", "AgentNotLoaded");
  }
  return agent;
}

function idList(value: unknown): string[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((id) => typeof id === "string" && id.length <= 200))
    return undefined;
  return value as string[];
}

async function startRun(options: HandleDevApiOptions): Promise<void> {
  const { request, response, context } = options;
  const body = await readJsonBody({ request });
  if (!body.ok) return sendError(response, body.status, body.message);
  const { input, sessionId } = body.value;
  if (typeof input !== "string" || input.trim() === "" || input.length > MAX_DEV_INPUT_CHARS) {
    return sendError(
      response,
      400,
      `"input" must be a non-empty string of at most ${MAX_DEV_INPUT_CHARS} characters`,
    );
  }
  if (!isDevId(sessionId)) return sendError(response, 400, `"sessionId" must match [A-Za-z0-9_.:-]{1,100}`);
  const agent = agentOr503(context, response);
  if (agent === undefined) return;
  const { runId, stream } = context.runs.start({ agent, input, sessionId });
  // A durable run: a client that goes away detaches (the run goes on; its log keeps it for the runs list).
  await pipeToNodeResponse(stream, response, { runId, sessionId, heartbeatMs: context.heartbeatMs });
}

async function resumeRun(options: HandleDevApiOptions, runId: string): Promise<void> {
  const { request, response, context } = options;
  const body = await readJsonBody({ request });
  if (!body.ok) return sendError(response, body.status, body.message);
  const approve = idList(body.value.approve);
  const deny = idList(body.value.deny);
  if (approve === undefined || deny === undefined) {
    return sendError(response, 400, `"approve" and "deny" must be lists of tool call ids`);
  }
  const agent = agentOr503(context, response);
  if (agent === undefined) return;
  const stream = context.runs.resume({ agent, runId, approve, deny });
  await pipeToNodeResponse(stream, response, { runId, heartbeatMs: context.heartbeatMs });
}

async function uploadTrace({ request, response, context }: HandleDevApiOptions): Promise<void> {
  const body = await readJsonBody({ request, maxBytes: MAX_TRACE_UPLOAD_BYTES + 64 * 1024 });
  if (!body.ok) return sendError(response, body.status, body.message);
  const { text, filename } = body.value;
  if (typeof text !== "string" || text === "")
    return sendError(response, 400, `"text" must hold the trace file`);
  const name = typeof filename === "string" ? filename : "trace.jsonl";
  sendJson(response, 201, await context.traces.upload({ text, filename: name }));
}

/** Routes one API request (see docs/web.md, "agentloop dev"). */
async function route(options: HandleDevApiOptions): Promise<void> {
  const { request, response, segments, context } = options;
  const method = request.method ?? "GET";
  const [first, id, action, ...extra] = segments;
  const get = method === "GET" || method === "HEAD";
  if (extra.length > 0) return sendError(response, 404, "no such endpoint");
  if (first === "info" && id === undefined && get) return sendJson(response, 200, info(context));
  if (first === "runs" && id === undefined && method === "POST") return startRun(options);
  if (first === "sessions" || first === "runs") {
    const agent = get ? agentOr503(context, response) : undefined;
    if (get && agent === undefined) return;
    if (id === undefined && get && agent !== undefined) {
      const list =
        first === "runs" ? await context.runs.listRuns(agent) : await context.runs.listSessions(agent);
      return sendJson(response, 200, list);
    }
    if (id !== undefined && !isDevId(id)) return sendError(response, 400, "not a valid id");
    if (id !== undefined && action === undefined && get && agent !== undefined) {
      const found =
        first === "runs"
          ? await context.runs.runEvents(agent, id)
          : await context.runs.sessionMessages(agent, id);
      return found === undefined
        ? sendError(response, 404, `no ${first.slice(0, -1)} ${id}`)
        : sendJson(response, 200, found);
    }
    if (first === "runs" && id !== undefined && action === "resume" && method === "POST")
      return resumeRun(options, id);
  }
  if (first === "traces") {
    if (id === undefined && get) return sendJson(response, 200, await context.traces.list());
    if (id === undefined && method === "POST") return uploadTrace(options);
    if (id !== undefined && action === undefined && get)
      return sendJson(response, 200, await context.traces.view(id));
    if (id !== undefined && action === "replay" && method === "POST") {
      request.resume();
      return sendJson(
        response,
        200,
        await context.traces.replay({ name: id, agent: context.agentState().agent }),
      );
    }
  }
  sendError(response, 404, "no such endpoint");
}

/** Handles a request under `/api/` (already authorized): JSON answers, or an SSE stream for runs. */
export async function handleDevApi(options: HandleDevApiOptions): Promise<void> {
  const { response } = options;
  try {
    await route(options);
  } catch (error) {
    if (response.headersSent) {
      if (!response.writableEnded) response.end();
      return;
    }
    const code = (error as { code?: unknown } | null)?.code;
    const name = error instanceof Error ? error.name : "Error";
    const message = error instanceof Error ? error.message : String(error);
    if (code === "ENOENT") return sendError(response, 404, "no such trace", "NotFound");
    if (TraceError.isInstance(error)) return sendError(response, 422, message, name);
    if (SessionBusyError.isInstance(error)) return sendError(response, 409, message, name);
    sendError(response, InvalidArgumentError.isInstance(error) ? 400 : 500, message, name);
  }
}
