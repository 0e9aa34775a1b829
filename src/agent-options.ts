import type { HandoffsOption } from "./agents/handoff.js";
import type { Budget } from "./cost/budget.js";
import type { ModelPrice, PricingTable } from "./cost/model-pricing.js";
import type { RunJournal } from "./durable/run-journal.js";
import type { GuardrailsOptions } from "./guardrails/guardrail.js";
import type { RetryPolicy } from "./http/retry-policy.js";
import type { AgentLimits, LimitPrompts } from "./loop/agent-limits.js";
import type { AgentResult } from "./loop/agent-result.js";
import type { ContextOptions } from "./loop/context-options.js";
import type { LoopDetectionOptions } from "./loop/loop-detector.js";
import type { PrepareStep } from "./loop/policies/prepare-step.js";
import type { StopCondition } from "./loop/policies/stop-conditions.js";
import type { PausedTurn } from "./loop/policies/sub-agents.js";
import type { SteeringInbox } from "./loop/steering-inbox.js";
import type { PendingApproval } from "./loop/tool-step.js";
import type { AgentHooks } from "./loop/with-hooks.js";
import type { Message } from "./models/message.js";
import type { JsonSchema, Model, ToolChoice } from "./models/model.js";
import type { Profile } from "./profiles/profile.js";
import type { MessageRedactor } from "./sessions/open-session-run.js";
import type { SessionStore } from "./stores/session-store.js";
import type { StandardSchemaV1 } from "./tools/standard-schema.js";
import type { Tool } from "./tools/tool.js";
import type { ToolRegistry } from "./tools/tool-registry.js";

/** Options of {@link Agent}. Only `model` is required. `TOutput`: the type of the typed answer. */
export interface AgentOptions<TOutput = unknown> extends AgentHooks {
  /**
   * The agent's name (default `"agent"`): the root of the path its sub-agents' events are tagged with
   * (`"lead/researcher"`), and a sub-agent's name in that path (default: the name of its tool). See
   * docs/multi-agent.md.
   */
  name?: string;
  /**
   * A {@link Model}, or a model string such as `"openai:gpt-4o-mini"`; or a list of them, in order of
   * preference: when a call of one fails for good (after its retries: a provider down, a 5xx storm, rate
   * limits, a context too long for it, content it cannot take), the turn is made again on the next one and the
   * run stays there (`model_fallback` event). See docs/models.md#fallback.
   */
  model: Model | string | readonly [Model | string, ...(Model | string)[]];
  /** The tools the model may call (or a registry). */
  tools?: readonly Tool[] | ToolRegistry;
  /**
   * Agents this one may hand the conversation to (each an `Agent` with a `name`, or a {@link handoff} with a
   * tool name or input filter), or a function returning them (called at the first run: agents that hand back to
   * each other). The model gets a `transfer_to_<name>` tool per handoff; from the call after it, the target
   * answers on the same history, in the same run. `result.agent` names who answered. See docs/multi-agent.md.
   */
  handoffs?: HandoffsOption;
  /**
   * A typed final answer: a zod 4 schema (any Standard Schema with JSON Schema), or a JSON Schema object, of
   * an object. The loop runs tools as usual; the final answer is validated into `result.output` (typed from a
   * zod schema). Models with native structured output get the schema with every request; others answer
   * through a `final_answer` tool. See docs/output.md.
   */
  output?: StandardSchemaV1<unknown, TOutput> | JsonSchema;
  /** How many times an invalid typed answer is sent back to the model with its errors (default 1). */
  outputRetries?: number;
  /**
   * The system prompt: a string, or a {@link Profile} (rendered once, at construction, with
   * `profile.renderSystemPrompt()`; `agent.system` holds the text).
   */
  system?: string | Profile;
  /** Hard limits and soft checkpoints (see {@link AgentLimits} for defaults). */
  limits?: Partial<AgentLimits>;
  /** Replaces the soft-checkpoint and wrap-up prompts. */
  prompts?: Partial<LimitPrompts>;
  /**
   * The agent's one retry policy, for every retryable failure of a model call: failed requests (429, 5xx,
   * resets, timeouts), streams that broke off, and retryable errors of any `Model` (`isRetryable: true`). A
   * model call makes at most `maxRetries + 1` requests, whatever failed (the loop does the retrying; the model
   * is asked not to retry on its own). Keys not set here come from the model's own policy (the provider's
   * `createOpenAI({ retry })`), else the defaults (3 retries, 1 s doubling, at most 30 s). See docs/loop.md.
   */
  retry?: Partial<RetryPolicy>;
  /** Run the tool calls of one response in parallel (default true); also sent to the model. */
  parallelToolCalls?: boolean;
  /** Default per-tool timeout (a tool's own `timeoutMs` wins). Default 30 000 ms. */
  toolTimeoutMs?: number;
  /** At most this many tools run at once. Default: the executor's default. */
  toolConcurrency?: number;
  /** Tool results longer than this are truncated with a marker. Default: the executor's default. */
  maxToolResultChars?: number;
  /** Loop detection (default on: window 4, threshold 3), or `false`. */
  loopDetection?: Partial<LoopDetectionOptions> | false;
  temperature?: number;
  maxOutputTokens?: number;
  /** Keeps the history within the context window (compaction); see docs/context.md. */
  context?: ContextOptions;
  /** Prices (USD per million tokens) that override or extend the built-in table, by model id. */
  pricing?: PricingTable;
  /** The price of models found in no table (default: zero, and the model is flagged in the result). */
  pricingFallback?: ModelPrice;
  /** A spending cap shared by every run of this agent (a run's own `budget` option wins). */
  budget?: Budget;
  /**
   * Record every run as a trace (`result.trace`): its events, the exact model requests and responses, and
   * tool results, hash-chained. Replay it offline with `replay(trace, { agent })`. See docs/traces.md.
   */
  trace?: boolean;
  /** Where durable runs are journaled (`agent.run(input, { runId })`): MemoryJournal, FileJournal, RedisJournal. */
  journal?: RunJournal;
  /** Where sessions persist (`agent.run(input, { sessionId })`). */
  store?: SessionStore;
  /**
   * Stored redaction: off by default, so the session store keeps the conversation as the model needs it
   * (a redacted history would change what the model sees on the session's later runs). `true` redacts what
   * is stored (API keys, bearer tokens, emails: messages and the session state, pending approvals included)
   * with the default redactor; a redactor from `createRedactor` configures it. What leaves the process
   * (events, traces, errors) is redacted separately.
   */
  redact?: boolean | MessageRedactor;
  /**
   * Called (and awaited) before each model call: may change, for that call only, the model, the tools offered
   * (a subset), `toolChoice`, the system prompt and the messages sent (the history is unchanged). A run's own
   * `prepareStep` option replaces this one. See docs/loop.md, "Control of every step".
   */
  prepareStep?: PrepareStep;
  /**
   * Conditions checked after each turn's tool calls ran (`hasToolCall("submit")`, `turnCount(5)` from
   * `agentloop/control`, or your own function): the first that holds stops the run with stop reason
   * `stop_condition`. A run's own `stopWhen` option replaces this one.
   */
  stopWhen?: StopCondition | readonly StopCondition[];
  /**
   * Checks that may block the run: `input` guardrails on the user message (before, or alongside, the first
   * model call), `output` guardrails on the final answer, `tool` guardrails on each call before it runs and
   * on its result before the model gets it. A block ends the run with stop reason `guardrail` and a
   * `GuardrailError`; a guardrail that throws blocks too. Built-ins in `agentloop/guardrails`
   * (`secretsGuardrail`, `maxLengthGuardrail`, `formatGuardrail`). See docs/guardrails.md.
   */
  guardrails?: GuardrailsOptions;
}

/** Per-run options. */
export interface RunOptions {
  /** A previous run's `messages`, to continue the conversation. */
  messages?: readonly Message[];
  /** Aborts the run: the model call and running tools are cancelled, the stop reason is `aborted`. */
  signal?: AbortSignal;
  /**
   * Continue (or start) a stored session: its history is loaded, new messages are persisted after each step,
   * and concurrent runs of one session are rejected with `SessionBusyError`. Needs the `store` option.
   */
  sessionId?: string;
  /** A spending cap shared with other runs (e.g. a daily budget per user); overrides the agent's. */
  budget?: Budget;
  /** Record this run as a trace (overrides the agent's `trace` option). */
  trace?: boolean;
  /**
   * Make the run durable under this id (needs the `journal` option): every step is journaled before it is
   * acted on; after a crash the same call (or `agent.resume({ runId })`) continues from the journal.
   */
  runId?: string;
  /** The tools offered in this run: names of the agent's tools (a call of any other is answered as unknown). */
  tools?: readonly string[];
  /**
   * How the model may use tools in every call of this run (`"auto"`, `"none"`, `"required"`, or
   * `{ type: "tool", name }`); a `prepareStep` override, the wrap-up call and the typed answer's request win.
   */
  toolChoice?: ToolChoice;
  /** Replaces the agent's `prepareStep` for this run. */
  prepareStep?: PrepareStep;
  /** Replaces the agent's `stopWhen` for this run. */
  stopWhen?: StopCondition | readonly StopCondition[];
  /**
   * An inbox for messages to the running agent (`steering.send(text)`), added between turns. `agent.stream`
   * makes one (`stream.send`) when this is not given. See docs/loop.md, "Steering".
   */
  steering?: SteeringInbox;
}

/** A run paused for approval: its result (or that result's JSON), or the session it is stored in. */
export type PausedRun =
  | Pick<AgentResult, "messages" | "pendingApprovals" | "pausedTurn">
  | { messages: readonly Message[]; pendingApprovals?: readonly PendingApproval[]; pausedTurn?: PausedTurn }
  | { sessionId: string }
  | { runId: string }
  | string;

/** The human's decisions for {@link Agent.resume}. */
export interface ResumeOptions {
  /** Tool call ids to execute. */
  approve?: readonly string[];
  /** Tool call ids to refuse (the model is told). Pending calls in neither list are refused too. */
  deny?: readonly string[];
  /** Who decided (kept in a durable run's log with the decision, e.g. a user id). */
  decidedBy?: string;
  signal?: AbortSignal;
  /** An inbox for messages to the resumed run, added between turns (docs/loop.md, "Steering"). */
  steering?: SteeringInbox;
}
