/**
 * The attribute, span and metric names agentloop/otel emits: the OpenTelemetry GenAI semantic conventions
 * (development status, v1.37+ spelling: `gen_ai.provider.name`, `gen_ai.input.messages`), and agentloop's own
 * under `agentloop.*`. See docs/observability.md for the table.
 */
export const GEN_AI_ATTRIBUTES = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  agentName: "gen_ai.agent.name",
  requestModel: "gen_ai.request.model",
  responseModel: "gen_ai.response.model",
  finishReasons: "gen_ai.response.finish_reasons",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  cacheReadInputTokens: "gen_ai.usage.cache_read.input_tokens",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  toolCallArguments: "gen_ai.tool.call.arguments",
  toolCallResult: "gen_ai.tool.call.result",
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
  tokenType: "gen_ai.token.type",
  errorType: "error.type",
  costUsd: "agentloop.cost.usd",
  costPriced: "agentloop.cost.priced",
  stopReason: "agentloop.stop_reason",
  agentPath: "agentloop.agent.path",
  replayed: "agentloop.replayed",
} as const;

/** The metric names (histograms) of the GenAI conventions that agentloop/otel records. */
export const GEN_AI_METRICS = {
  tokenUsage: "gen_ai.client.token.usage",
  operationDuration: "gen_ai.client.operation.duration",
} as const;

/** Bucket boundaries the conventions advise for `gen_ai.client.token.usage`. */
export const TOKEN_USAGE_BUCKETS: readonly number[] = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];

/** Bucket boundaries (seconds) the conventions advise for `gen_ai.client.operation.duration`. */
export const OPERATION_DURATION_BUCKETS: readonly number[] = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];
