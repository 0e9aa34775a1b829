/**
 * `agentloop/otel`: OpenTelemetry spans and metrics for agent runs, following the GenAI semantic conventions
 * (docs/observability.md). `new Agent({ ...otelHooks(), model, tools })` traces every run: an `invoke_agent`
 * span per run, a `chat` span per model call, an `execute_tool` span per tool call, sub-agents nested. Needs
 * the optional peer `@opentelemetry/api`.
 */

export { OTEL_SCOPE_NAME, type OtelHooksOptions, otelHooks } from "./otel-hooks.js";
