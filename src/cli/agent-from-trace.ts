import { Agent } from "../agent.js";
import { TraceError } from "../errors/trace-error.js";
import type { Model } from "../models/model.js";
import { type Tool, tool } from "../tools/tool.js";
import type { RecordedModelRequest, Trace, TraceMeta } from "../trace/trace-types.js";
import { buildCliTools } from "./build-cli-tools.js";
import { isCliToolName } from "./cli-tool-names.js";

/** Options of {@link agentFromTrace}. */
export interface AgentFromTraceOptions {
  trace: Trace;
  /** The file tools' root (they are not run: replay answers tool calls from the trace). */
  cwd: string;
}

/** The meta record's data. */
export function traceMeta(trace: Trace): TraceMeta {
  const first = trace.records[0];
  if (first?.kind !== "meta")
    throw new TraceError({ message: "the trace does not start with a meta record", seq: 0 });
  return first.data;
}

/** The first recorded model request, if any. */
function firstRequest(trace: Trace): RecordedModelRequest | undefined {
  for (const record of trace.records) if (record.kind === "model_request") return record.data.request;
  return undefined;
}

/** A model that is never called: replay swaps in a `ReplayModel`. */
function placeholderModel(meta: TraceMeta): Model {
  const colon = meta.model.indexOf(":");
  const fail = (): never => {
    throw new TraceError({ message: "the placeholder model of a replay was called" });
  };
  return {
    provider: colon < 0 ? meta.model : meta.model.slice(0, colon),
    modelId: colon < 0 ? "" : meta.model.slice(colon + 1),
    generate: async () => fail(),
    stream: () => fail(),
  };
}

/**
 * The tools of the recorded run: the CLI's built-ins by name (so their schemas and approval gates are the
 * same), and for any other name a stand-in with the recorded name, description and schema (replay answers
 * its calls with the recorded results; it never runs).
 */
function toolsOf(meta: TraceMeta, request: RecordedModelRequest | undefined, cwd: string): Tool[] {
  return meta.tools.map((name) => {
    if (isCliToolName(name)) {
      const [builtin] = buildCliTools({ names: [name], cwd, ask: async () => "" });
      if (builtin !== undefined) return builtin;
    }
    const spec = request?.tools?.find((candidate) => candidate.name === name);
    return tool({
      name,
      description: spec?.description ?? "",
      parameters: spec?.parameters ?? { type: "object" },
      execute: () => {
        throw new TraceError({ message: `the tool ${name} is not available outside the recorded run` });
      },
    }) as Tool;
  });
}

/**
 * Rebuilds the agent of a recorded run from its trace, for `replay`: the model string and tool names of the
 * meta record, the system prompt and request settings (temperature, output limit, parallel tool calls) of the
 * first model request, and a turn limit that reproduces a recorded `max_turns` stop.
 */
export function agentFromTrace({ trace, cwd }: AgentFromTraceOptions): Agent {
  const meta = traceMeta(trace);
  const request = firstRequest(trace);
  const first = request?.messages[0];
  const system = first?.role === "system" && meta.messages[0]?.role !== "system" ? first.content : undefined;
  const requests = trace.records.filter((record) => record.kind === "model_request").length;
  const maxTurnsStop = trace.records.some(
    (record) =>
      record.kind === "event" &&
      record.data.type === "loop_end" &&
      record.data.data.stopReason === "max_turns",
  );
  return new Agent({
    model: placeholderModel(meta),
    tools: toolsOf(meta, request, cwd),
    ...(system !== undefined && { system }),
    ...(request?.temperature !== undefined && { temperature: request.temperature }),
    ...(request?.maxOutputTokens !== undefined && { maxOutputTokens: request.maxOutputTokens }),
    ...(request?.parallelToolCalls !== undefined && { parallelToolCalls: request.parallelToolCalls }),
    ...(maxTurnsStop && requests > 0 && { limits: { maxTurns: requests } }),
  });
}
