import type { AgentOptions } from "./agent-options.js";
import { checkGuardrailsOption } from "./guardrails/check-guardrails-option.js";
import type { AgentLimits, LimitPrompts } from "./loop/agent-limits.js";
import type { ContextOptions } from "./loop/context-options.js";
import type { LoopDetectionOptions } from "./loop/loop-detector.js";
import { stopConditionsOf } from "./loop/policies/stop-conditions.js";
import { isProfileLike } from "./profiles/system-prompt-of.js";
import { checkToolsOption } from "./tools/check-tools-option.js";
import {
  checkObjectOption as checkObject,
  checkTemperatureOption,
  failOption as fail,
  isPlainObject,
  optionKeys,
  showValue as show,
} from "./util/check-option.js";

// Key lists checked against the option types: adding an option there without adding it here fails to compile.
/** An agent's name: one segment of a sub-agent path (`"lead/researcher"`), so no "/". */
const AGENT_NAME = /^[a-zA-Z0-9_.-]{1,64}$/;

const AGENT_KEYS = optionKeys<AgentOptions>({
  name: true,
  handoffs: true,
  model: true,
  tools: true,
  output: true,
  outputRetries: true,
  system: true,
  limits: true,
  prompts: true,
  retry: true,
  parallelToolCalls: true,
  toolTimeoutMs: true,
  toolConcurrency: true,
  maxToolResultChars: true,
  loopDetection: true,
  temperature: true,
  maxOutputTokens: true,
  context: true,
  pricing: true,
  pricingFallback: true,
  budget: true,
  trace: true,
  journal: true,
  store: true,
  redact: true,
  onEvent: true,
  onToolStart: true,
  onToolEnd: true,
  prepareStep: true,
  stopWhen: true,
  guardrails: true,
});
const LIMIT_KEYS = optionKeys<AgentLimits>({
  maxTurns: true,
  timeoutMs: true,
  maxTotalTokens: true,
  maxCostUsd: true,
  softMaxTurns: true,
  softTimeoutMs: true,
  wrapUp: true,
  maxToolCallsPerTurn: true,
});
const PROMPT_KEYS = optionKeys<LimitPrompts>({ softTurns: true, softTime: true, wrapUp: true });
const LOOP_DETECTION_KEYS = optionKeys<LoopDetectionOptions>({ window: true, threshold: true });
const CONTEXT_KEYS = optionKeys<ContextOptions>({
  maxContextTokens: true,
  compactAt: true,
  targetRatio: true,
  strategy: true,
  keepLastMessages: true,
  truncateToolResultsTo: true,
  summaryModel: true,
  counter: true,
  calibration: true,
});

function checkType(argument: string, value: unknown, type: "boolean" | "string" | "function"): void {
  if (value !== undefined && typeof value !== type) fail(argument, `expected a ${type}, got ${show(value)}`);
}

/** Checks an optional positive integer; `Infinity` is allowed where it means "no limit". */
function checkCount(argument: string, value: unknown, { infinite }: { infinite: boolean }): void {
  if (value === undefined || (infinite && value === Number.POSITIVE_INFINITY)) return;
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    fail(argument, `expected a positive integer${infinite ? " (or Infinity)" : ""}, got ${show(value)}`);
  }
}

/** Checks an object has the named methods (a store, a journal, a model, a counter). */
function checkMethods(argument: string, value: unknown, methods: readonly string[], what: string): void {
  if (value === undefined) return;
  const missing = isPlainObject(value)
    ? methods.filter((name) => typeof value[name] !== "function")
    : methods;
  if (missing.length > 0) fail(argument, `expected ${what} (missing ${missing.join(", ")})`);
}

/**
 * Validates the {@link AgentOptions} that no resolver of their own checks (types, unknown keys, ranges), so a
 * bad option throws {@link InvalidArgumentError} naming it at construction, not deep in a run. Limits, retry,
 * context and loop detection values are range-checked by their resolvers; this checks their shape.
 */
export function checkAgentOptions(options: AgentOptions): void {
  checkObject("options", options, AGENT_KEYS);
  checkToolsOption(options.tools);
  const name: unknown = options.name;
  if (name !== undefined && (typeof name !== "string" || !AGENT_NAME.test(name))) {
    fail("name", `expected 1-64 characters of a-z, A-Z, 0-9, "_", "-" or ".", got ${show(name)}`);
  }
  if (options.system !== undefined && typeof options.system !== "string" && !isProfileLike(options.system)) {
    fail("system", `expected a string or a Profile, got ${show(options.system)}`);
  }
  checkObject("limits", options.limits, LIMIT_KEYS);
  checkType("limits.wrapUp", options.limits?.wrapUp, "boolean");
  checkObject("prompts", options.prompts, PROMPT_KEYS);
  checkType("prompts.softTurns", options.prompts?.softTurns, "function");
  checkType("prompts.softTime", options.prompts?.softTime, "function");
  checkType("prompts.wrapUp", options.prompts?.wrapUp, "string");
  checkType("parallelToolCalls", options.parallelToolCalls, "boolean");
  checkType("trace", options.trace, "boolean");
  for (const hook of ["onEvent", "onToolStart", "onToolEnd"] as const)
    checkType(hook, options[hook], "function");
  const toolTimeoutMs: unknown = options.toolTimeoutMs;
  if (toolTimeoutMs !== undefined && !(typeof toolTimeoutMs === "number" && toolTimeoutMs > 0)) {
    fail("toolTimeoutMs", `expected a positive number, got ${show(toolTimeoutMs)}`);
  }
  checkCount("toolConcurrency", options.toolConcurrency, { infinite: true });
  checkCount("maxToolResultChars", options.maxToolResultChars, { infinite: true });
  checkCount("maxOutputTokens", options.maxOutputTokens, { infinite: false });
  const retries = options.outputRetries;
  if (retries !== undefined && (typeof retries !== "number" || !Number.isInteger(retries) || retries < 0)) {
    fail("outputRetries", `expected a non-negative integer, got ${show(retries)}`);
  }
  checkTemperatureOption(options.temperature);
  if (options.loopDetection !== false) {
    checkObject("loopDetection", options.loopDetection, LOOP_DETECTION_KEYS);
  }
  if (options.context !== undefined) {
    checkObject("context", options.context, CONTEXT_KEYS);
    checkMethods("context.summaryModel", options.context.summaryModel, ["generate", "stream"], "a Model");
    checkMethods(
      "context.counter",
      options.context.counter,
      ["countText", "countMessage", "countTools"],
      "a TokenCounter",
    );
    checkMethods(
      "context.calibration",
      options.context.calibration,
      ["for", "toJSON"],
      "a CalibrationRegistry",
    );
  }
  const sessionMethods = ["load", "append", "replace", "saveState", "list", "delete", "lock"];
  checkMethods("store", options.store, sessionMethods, "a SessionStore such as FileStore");
  checkMethods("journal", options.journal, ["append", "load", "compact", "delete", "list"], "a RunJournal");
  if (typeof options.redact !== "boolean") {
    checkMethods("redact", options.redact, ["redactMessage"], "a boolean or a redactor from createRedactor");
  }
  checkMethods("budget", options.budget, ["reserve", "settle"], "a Budget");
  checkType("prepareStep", options.prepareStep, "function");
  if (options.stopWhen !== undefined) stopConditionsOf("stopWhen", options.stopWhen);
  checkObject("pricing", options.pricing);
  checkObject("pricingFallback", options.pricingFallback);
  checkGuardrailsOption(options.guardrails);
}
