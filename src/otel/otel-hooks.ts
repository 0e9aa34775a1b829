import { type Histogram, type MeterProvider, metrics, type TracerProvider, trace } from "@opentelemetry/api";
import type { AgentEvent } from "../loop/agent-event.js";
import type { AgentHooks, HookRun } from "../loop/with-hooks.js";
import { createRedactor, type Redactor, type RedactorOptions } from "../stores/redactor.js";
import { GEN_AI_METRICS, OPERATION_DURATION_BUCKETS, TOKEN_USAGE_BUCKETS } from "./gen-ai-attributes.js";
import { RunSpans } from "./run-spans.js";

/** The instrumentation scope name of the tracer and meter agentloop/otel uses. */
export const OTEL_SCOPE_NAME = "agentloop";

/** Options of {@link otelHooks}. */
export interface OtelHooksOptions {
  /** Where spans go. Default: the global tracer provider of `@opentelemetry/api` (looked up at each run). */
  tracerProvider?: TracerProvider;
  /**
   * Where the `gen_ai.client.*` histograms go. Default: the global meter provider (looked up at the first run
   * that is traced; register it before). `false`: record no metrics.
   */
  meterProvider?: MeterProvider | false;
  /**
   * Put prompt and completion content into attributes (`gen_ai.input.messages`, `gen_ai.output.messages`,
   * `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`), redacted. Default `false`: no content at all.
   * `true` redacts with the default rules; an object gives the redactor's options.
   */
  captureContent?: boolean | RedactorOptions;
  /** `gen_ai.agent.name` of the root run's `invoke_agent` span. Default `"agent"`. */
  agentName?: string;
}

/**
 * Hooks that turn an agent's events into OpenTelemetry spans and metrics following the GenAI semantic
 * conventions: `new Agent({ ...otelHooks(), model, tools })`. Each run gets an `invoke_agent` span, each model
 * call a `chat` span (model, token usage, `agentloop.cost.usd`, finish reasons, retries as span events,
 * errors as status), each tool call an `execute_tool` span; a sub-agent's (`agent.asTool`) `invoke_agent`
 * span nests under the `execute_tool` span of its call. Times are the events' timestamps. With no tracer
 * provider registered, a run costs one check at its start and one map lookup per event (nothing is made). A failure here never breaks the run (hooks are isolated).
 * Concurrent runs of one agent each get their own spans (the hooks keep state per run); two calls of one
 * sub-agent running at the same time inside one run are told apart by their tasks (docs/observability.md).
 */
export function otelHooks(options: OtelHooksOptions = {}): Required<Pick<AgentHooks, "onEvent">> {
  const redactor = resolveRedactor(options.captureContent);
  const agentName = options.agentName ?? "agent";
  // One state per run (the hook run object is the same for every event of a run): concurrent runs of an agent
  // sharing these hooks each get their own spans.
  const runs = new WeakMap<HookRun, RunSpans>();
  let histograms: { tokenUsage: Histogram; operationDuration: Histogram } | undefined | false;
  const onEvent = (event: AgentEvent, run: HookRun = NO_RUN): void => {
    if (event.type === "loop_start" && event.agent === undefined) {
      const provider = options.tracerProvider ?? trace.getTracerProvider();
      // Nothing registered: the run is not traced, and costs nothing more than this check.
      if (isUnregistered(provider)) return;
      histograms ??= createHistograms(options.meterProvider);
      runs.set(
        run,
        new RunSpans({
          tracer: provider.getTracer(OTEL_SCOPE_NAME),
          tokenUsage: histograms === false ? undefined : histograms.tokenUsage,
          operationDuration: histograms === false ? undefined : histograms.operationDuration,
          redactor,
          agentName,
        }),
      );
    }
    const spans = runs.get(run);
    if (spans === undefined) return;
    spans.handle(event);
    if (!spans.active) runs.delete(run);
  };
  return { onEvent };
}

/**
 * Whether `provider` is @opentelemetry/api's global proxy with no provider registered behind it (every tracer
 * it gives is a no-op). Duck-typed: a provider without `getDelegateTracer` is taken as registered.
 */
function isUnregistered(provider: TracerProvider): boolean {
  const proxy = provider as { getDelegateTracer?: (name: string) => unknown };
  return (
    typeof proxy.getDelegateTracer === "function" && proxy.getDelegateTracer(OTEL_SCOPE_NAME) === undefined
  );
}

/** The run of a caller that gives none (an `onEvent` called by hand). */
const NO_RUN: HookRun = Object.freeze({});

function resolveRedactor(capture: OtelHooksOptions["captureContent"]): Redactor | undefined {
  if (capture === undefined || capture === false) return undefined;
  return createRedactor(capture === true ? {} : capture);
}

function createHistograms(
  provider: MeterProvider | false | undefined,
): { tokenUsage: Histogram; operationDuration: Histogram } | false {
  if (provider === false) return false;
  const meter = (provider ?? metrics.getMeterProvider()).getMeter(OTEL_SCOPE_NAME);
  return {
    tokenUsage: meter.createHistogram(GEN_AI_METRICS.tokenUsage, {
      description: "Number of input and output tokens used",
      unit: "{token}",
      advice: { explicitBucketBoundaries: [...TOKEN_USAGE_BUCKETS] },
    }),
    operationDuration: meter.createHistogram(GEN_AI_METRICS.operationDuration, {
      description: "GenAI operation duration",
      unit: "s",
      advice: { explicitBucketBoundaries: [...OPERATION_DURATION_BUCKETS] },
    }),
  };
}
