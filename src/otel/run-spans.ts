import {
  type Attributes,
  type Context,
  context,
  type Histogram,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { AgentEvent, AgentEventOf } from "../loop/agent-event.js";
import type { Redactor } from "../stores/redactor.js";
import { GEN_AI_ATTRIBUTES as A } from "./gen-ai-attributes.js";

/** What the span builder needs: where spans and metrics go, and how content is treated. */
export interface RunSpansOptions {
  tracer: Tracer;
  tokenUsage: Histogram | undefined;
  operationDuration: Histogram | undefined;
  /** Set when content is captured (redacted with it); undefined: no content in any attribute. */
  redactor: Redactor | undefined;
  agentName: string;
}

/** An open tool call: its span, and what a sub-agent started by it is matched against. */
interface OpenTool {
  span: Span;
  toolName: string;
  arguments: unknown;
  claimed: boolean;
}

/** One run (the root, or a sub-agent at a path) being traced. */
interface RunState {
  span: Span;
  ctx: Context;
  chat: Span | undefined;
  chatAttributes: Attributes | undefined;
  chatStartedAt: number;
  tools: Map<string, OpenTool>;
  inputTokens: number;
  outputTokens: number;
}

/** `"openai:gpt-4o"` → provider and model id (no provider: `_OTHER`, as the conventions say). */
function splitModel(model: string): { provider: string; modelId: string } {
  const at = model.indexOf(":");
  return at <= 0
    ? { provider: "_OTHER", modelId: model }
    : { provider: model.slice(0, at), modelId: model.slice(at + 1) };
}

/** The path of the run that started the sub-agent at `path` ("" for the root run). */
function parentKey(path: string): string {
  const segments = path.split("/");
  return segments.length <= 2 ? "" : segments.slice(0, -1).join("/");
}

function textMessage(role: "user" | "assistant", content: string, finishReason?: string): string {
  const message: Record<string, unknown> = { role, parts: [{ type: "text", content }] };
  if (finishReason !== undefined) message.finish_reason = finishReason;
  return JSON.stringify([message]);
}

/**
 * Builds OpenTelemetry spans from a run's events: an `invoke_agent` span per run (sub-agents nested under the
 * `execute_tool` span of the call that started them), a `chat` span per model call, an `execute_tool` span
 * per tool call. Runs are keyed by their agent path ("" for the root).
 */
export class RunSpans {
  private readonly runs = new Map<string, RunState>();

  constructor(private readonly options: RunSpansOptions) {}

  /** Whether any run is being traced (false: the tracer is a no-op, or no run started). */
  get active(): boolean {
    return this.runs.size > 0;
  }

  /** Applies one event. */
  handle(event: AgentEvent): void {
    if (event.type === "loop_start") {
      this.start(event);
      return;
    }
    const run = this.runs.get(event.agent ?? "");
    if (run === undefined) return;
    switch (event.type) {
      case "turn_start":
        this.turnStart(run, event);
        return;
      case "model_call":
        this.modelCall(run, event);
        return;
      case "retry":
      case "model_fallback":
        run.chat?.addEvent(`agentloop.${event.type}`, { ...event.data }, event.timestamp);
        return;
      case "compaction":
      case "soft_limit":
        run.span.addEvent(`agentloop.${event.type}`, { ...event.data }, event.timestamp);
        return;
      case "guardrail":
        run.span.addEvent("agentloop.guardrail", { ...event.data }, event.timestamp);
        return;
      case "action":
        this.action(run, event);
        return;
      case "observation":
        this.observation(run, event);
        return;
      case "error":
        this.error(run, event);
        return;
      case "loop_end":
        this.end(event.agent ?? "", run, event);
        return;
    }
  }

  private start(event: AgentEventOf<"loop_start">): void {
    const key = event.agent ?? "";
    const { provider, modelId } = splitModel(event.data.model);
    const name = key === "" ? this.options.agentName : (key.split("/").pop() ?? key);
    const parent = key === "" ? undefined : this.runs.get(parentKey(key));
    const tool = parent === undefined ? undefined : claimTool(parent, name, event.data.task);
    const parentCtx =
      tool !== undefined
        ? trace.setSpan(parent?.ctx ?? context.active(), tool.span)
        : (parent?.ctx ?? context.active());
    const attributes: Attributes = {
      [A.operationName]: "invoke_agent",
      [A.providerName]: provider,
      [A.agentName]: name,
      [A.requestModel]: modelId,
    };
    if (key !== "") attributes[A.agentPath] = key;
    if (event.replayed) attributes[A.replayed] = true;
    const { redactor } = this.options;
    if (redactor !== undefined) {
      attributes[A.inputMessages] = textMessage("user", redactor.redactText(event.data.task));
    }
    const span = this.options.tracer.startSpan(
      `invoke_agent ${name}`,
      { kind: SpanKind.INTERNAL, startTime: event.timestamp, attributes },
      parentCtx,
    );
    // A no-op tracer (nothing registered): keep no state, so every later event is one map lookup.
    if (!span.isRecording()) return;
    this.runs.set(key, {
      span,
      ctx: trace.setSpan(parentCtx, span),
      chat: undefined,
      chatAttributes: undefined,
      chatStartedAt: 0,
      tools: new Map(),
      inputTokens: 0,
      outputTokens: 0,
    });
  }

  private turnStart(run: RunState, event: AgentEventOf<"turn_start">): void {
    endChat(run, event.timestamp);
    const { provider, modelId } = splitModel(event.data.model);
    const attributes: Attributes = {
      [A.operationName]: "chat",
      [A.providerName]: provider,
      [A.requestModel]: modelId,
    };
    run.chatAttributes = attributes;
    run.chatStartedAt = event.timestamp;
    run.chat = this.options.tracer.startSpan(
      `chat ${modelId}`,
      { kind: SpanKind.CLIENT, startTime: event.timestamp, attributes },
      run.ctx,
    );
  }

  private modelCall(run: RunState, event: AgentEventOf<"model_call">): void {
    const { data } = event;
    const { provider, modelId } = splitModel(data.model);
    const span = run.chat;
    run.inputTokens += data.usage.inputTokens;
    run.outputTokens += data.usage.outputTokens;
    if (span !== undefined) {
      span.setAttributes({
        [A.responseModel]: modelId,
        [A.finishReasons]: [data.finishReason.unified],
        [A.inputTokens]: data.usage.inputTokens,
        [A.outputTokens]: data.usage.outputTokens,
        [A.costUsd]: data.costUsd,
        [A.costPriced]: data.priced,
      });
      if (data.usage.cachedInputTokens !== undefined) {
        span.setAttribute(A.cacheReadInputTokens, data.usage.cachedInputTokens);
      }
      span.end(event.timestamp);
    }
    const base: Attributes = {
      [A.operationName]: "chat",
      [A.providerName]: provider,
      [A.requestModel]: (run.chatAttributes?.[A.requestModel] as string | undefined) ?? modelId,
      [A.responseModel]: modelId,
    };
    run.chat = undefined;
    run.chatAttributes = undefined;
    const { tokenUsage, operationDuration } = this.options;
    tokenUsage?.record(data.usage.inputTokens, { ...base, [A.tokenType]: "input" });
    tokenUsage?.record(data.usage.outputTokens, { ...base, [A.tokenType]: "output" });
    operationDuration?.record(data.latencyMs / 1000, base);
  }

  private action(run: RunState, event: AgentEventOf<"action">): void {
    const { toolCallId, toolName } = event.data;
    const attributes: Attributes = {
      [A.operationName]: "execute_tool",
      [A.toolName]: toolName,
      [A.toolCallId]: toolCallId,
      [A.toolType]: "function",
    };
    const { redactor } = this.options;
    if (redactor !== undefined) {
      attributes[A.toolCallArguments] = JSON.stringify(
        redactor.redactValue((event.data.arguments ?? null) as Parameters<Redactor["redactValue"]>[0]),
      );
    }
    const span = this.options.tracer.startSpan(
      `execute_tool ${toolName}`,
      { kind: SpanKind.INTERNAL, startTime: event.timestamp, attributes },
      run.ctx,
    );
    run.tools.set(toolCallId, { span, toolName, arguments: event.data.arguments, claimed: false });
  }

  private observation(run: RunState, event: AgentEventOf<"observation">): void {
    const open = run.tools.get(event.data.toolCallId);
    if (open === undefined) return;
    run.tools.delete(event.data.toolCallId);
    const { span } = open;
    const { redactor } = this.options;
    if (redactor !== undefined) span.setAttribute(A.toolCallResult, redactor.redactText(event.data.result));
    if (!event.data.ok) {
      const error = event.data.error;
      span.setAttribute(A.errorType, error?.type ?? "_OTHER");
      span.setStatus({ code: SpanStatusCode.ERROR, message: error?.message });
    }
    span.end(event.timestamp);
  }

  private error(run: RunState, event: AgentEventOf<"error">): void {
    const { name, message, fatal } = event.data;
    const target = run.chat ?? run.span;
    target.addEvent("exception", { "exception.type": name, "exception.message": message }, event.timestamp);
    if (!fatal) return;
    if (run.chat !== undefined) {
      run.chat.setAttribute(A.errorType, name);
      run.chat.setStatus({ code: SpanStatusCode.ERROR, message });
      const attributes = { ...run.chatAttributes, [A.errorType]: name };
      this.options.operationDuration?.record(
        Math.max(0, event.timestamp - run.chatStartedAt) / 1000,
        attributes,
      );
      endChat(run, event.timestamp);
    }
    run.span.setAttribute(A.errorType, name);
    run.span.setStatus({ code: SpanStatusCode.ERROR, message });
  }

  private end(key: string, run: RunState, event: AgentEventOf<"loop_end">): void {
    endChat(run, event.timestamp);
    for (const open of run.tools.values()) open.span.end(event.timestamp);
    const { span } = run;
    span.setAttributes({
      [A.stopReason]: event.data.stopReason,
      [A.inputTokens]: run.inputTokens,
      [A.outputTokens]: run.outputTokens,
    });
    const { redactor } = this.options;
    if (redactor !== undefined && event.data.text !== "") {
      span.setAttribute(
        A.outputMessages,
        textMessage("assistant", redactor.redactText(event.data.text), "stop"),
      );
    }
    if (event.data.stopReason === "error") span.setStatus({ code: SpanStatusCode.ERROR });
    span.end(event.timestamp);
    this.runs.delete(key);
  }
}

function endChat(run: RunState, at: number): void {
  run.chat?.end(at);
  run.chat = undefined;
  run.chatAttributes = undefined;
}

/**
 * The caller's open tool call that started a sub-agent: the one whose arguments are its task (`{ input }` or
 * the arguments as JSON), else one named after it, else the latest unclaimed one.
 */
function claimTool(parent: RunState, name: string, task: string): OpenTool | undefined {
  let byName: OpenTool | undefined;
  let latest: OpenTool | undefined;
  for (const open of parent.tools.values()) {
    if (open.claimed) continue;
    const args = open.arguments as { input?: unknown } | null;
    if ((args !== null && typeof args === "object" && args.input === task) || JSON.stringify(args) === task) {
      open.claimed = true;
      return open;
    }
    if (open.toolName === name) byName ??= open;
    latest = open;
  }
  const chosen = byName ?? latest;
  if (chosen !== undefined) chosen.claimed = true;
  return chosen;
}
