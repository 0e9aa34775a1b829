import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { JsonSchema, ModelToolSpec } from "../models/model.js";
import type { RunState } from "../sessions/run-state.js";
import type { CALLER_RUN } from "./caller-run-key.js";
import { resolveToolParameters, type ToolArgumentsResult } from "./resolve-tool-parameters.js";
import type { InferSchemaOutput, StandardSchemaV1 } from "./standard-schema.js";

/** What a running tool receives besides its arguments. */
export interface ToolContext {
  /** Aborted when the run is aborted or the tool times out (the reason says which). Pass it to I/O. */
  signal: AbortSignal;
  /** The id of the tool call being answered. */
  toolCallId: string;
  /** The model turn that requested the call (1 for the first). */
  turn: number;
  /** A key that stays the same when the same call is executed again, when the caller provides one. */
  idempotencyKey?: string;
  /** The run's session id, when the run has one. */
  sessionId?: string;
  /** The run's key-value state (persisted with the session, when there is one). */
  state?: RunState;
  /** Internal: what the calling run offers a sub-agent tool (`agent.asTool`). Not for user tools. */
  [CALLER_RUN]?: unknown;
}

/**
 * Decides per call whether a tool call needs approval. Declared with method syntax so that a `Tool<Args>` is
 * assignable to `Tool` (method parameters are bivariant).
 */
export type ApprovalCheck<Args> = {
  check(args: Args): boolean | Promise<boolean>;
}["check"];

/** A tool the model can call. Create one with {@link tool}; it is immutable. */
export interface Tool<Args = unknown, Result = unknown> {
  /** The name the model calls it by (`^[a-zA-Z0-9_-]{1,64}$`). */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /**
   * The zod schema or JSON Schema given at creation; for a tool created without `parameters`, its no-argument
   * schema (the same object as {@link Tool.jsonSchema}).
   */
  readonly parameters: StandardSchemaV1 | JsonSchema;
  /** The arguments' JSON Schema, computed once at creation (top-level `type: "object"`). */
  readonly jsonSchema: JsonSchema;
  /** The tool as the model sees it (`parameters` is {@link Tool.jsonSchema}); the same object every time. */
  readonly spec: ModelToolSpec;
  /** Per-tool timeout; overrides the executor's default. `Infinity` disables the timeout. */
  readonly timeoutMs: number | undefined;
  /** Per-tool result limit in characters; overrides the executor's default. */
  readonly maxResultChars: number | undefined;
  /** Whether a call needs approval before it runs: a constant or a per-call check (used by the agent loop). */
  readonly needsApproval: boolean | ApprovalCheck<Args>;
  /** When true, the tool never runs beside another tool: the executor runs it alone. */
  readonly sequential: boolean;
  /** When true, running the same call twice has the same effect as running it once (used by the agent loop). */
  readonly idempotent: boolean;
  /**
   * When true, a successful call ends the run: its result is the answer (`result.text`, stop reason
   * `completed`), once the other calls of its turn have finished. A failed call does not end it.
   */
  readonly terminal: boolean;
  /** Validates (and for zod parses) raw call arguments. Never rejects for invalid arguments. */
  parseArguments(args: unknown): Promise<ToolArgumentsResult<Args>>;
  /** Runs the tool on validated arguments. Prefer the executor, which adds timeouts and error handling. */
  execute(args: Args, ctx: ToolContext): Result | Promise<Result>;
  /** Resolves {@link Tool.needsApproval} for one call. */
  requiresApproval(args: Args): Promise<boolean>;
}

/** Options shared by both forms of {@link tool}. */
interface ToolOptionsBase<Args, Result> {
  /** The name the model calls it by: 1-64 characters of `a-z`, `A-Z`, `0-9`, `_`, `-`. */
  name: string;
  /** What the tool does and when to use it, for the model. */
  description: string;
  /**
   * Runs the tool. May be sync or async; return a string (sent as is), any JSON-serialisable value (sent as
   * JSON), or nothing (sent as "(empty)"). Throwing reports the error's type and message to the model.
   */
  execute: (args: Args, ctx: ToolContext) => Result | Promise<Result>;
  /** Timeout in ms; overrides the executor's default (30 000). `Infinity` disables it. */
  timeoutMs?: number;
  /** Whether a call needs approval: a constant or a per-call check. Stored for the agent loop. */
  needsApproval?: boolean | ApprovalCheck<Args>;
  /** Never run beside another tool. Default false. */
  sequential?: boolean;
  /** Calling it twice with the same arguments is harmless. Stored for the agent loop. Default false. */
  idempotent?: boolean;
  /**
   * A successful call ends the run with its result as the answer (`result.text`; for an agent with an `output`
   * schema, the result is the typed answer, checked against it). The turn's other calls finish first; a call
   * that fails (bad arguments, a throw, a timeout) does not end the run. Default false. See docs/loop.md.
   */
  terminal?: boolean;
  /** Results longer than this are truncated; overrides the executor's default (20 000). */
  maxResultChars?: number;
}

/**
 * Options of {@link tool} with a zod 4 schema (or any Standard Schema with JSON Schema support): the arguments'
 * type is inferred from it.
 */
export interface ZodToolOptions<Schema extends StandardSchemaV1, Result>
  extends ToolOptionsBase<InferSchemaOutput<Schema>, Result> {
  /** A zod schema of the arguments object. */
  parameters: Schema;
}

/** Options of {@link tool} with a plain JSON Schema: the arguments are validated but untyped. */
export interface JsonSchemaToolOptions<Result, Args extends Record<string, unknown> = Record<string, unknown>>
  extends ToolOptionsBase<Args, Result> {
  /** A JSON Schema of the arguments object (top-level `type: "object"`). */
  parameters: JsonSchema;
}

/**
 * Options of {@link tool} without `parameters`: a tool that takes no arguments. The model is offered
 * `{ type: "object", properties: {} }`; the call runs with `{}` whether the model sends `{}`, `""` or `null`.
 */
export interface NoParametersToolOptions<Result> extends ToolOptionsBase<Record<string, never>, Result> {
  /** Leave out (or `undefined`): the tool takes no arguments. */
  parameters?: undefined;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function invalid(argument: string, message: string): InvalidArgumentError {
  return new InvalidArgumentError({ argument, message });
}

function checkOptionalBoolean(argument: string, value: unknown): void {
  if (value !== undefined && typeof value !== "boolean") throw invalid(argument, "expected a boolean");
}

function checkOptions(options: ToolOptionsBase<never, unknown> & { parameters?: unknown }): void {
  if (options === null || typeof options !== "object") throw invalid("options", "expected an options object");
  const { name, description, execute, timeoutMs, maxResultChars, needsApproval } = options;
  if (typeof name !== "string" || !TOOL_NAME.test(name)) {
    throw invalid(
      "name",
      `expected 1-64 characters of a-z, A-Z, 0-9, "_" or "-", got ${JSON.stringify(name)}`,
    );
  }
  if (typeof description !== "string") throw invalid("description", `expected a string for tool "${name}"`);
  if (typeof execute !== "function") throw invalid("execute", `expected a function for tool "${name}"`);
  if (
    timeoutMs !== undefined &&
    (typeof timeoutMs !== "number" || Number.isNaN(timeoutMs) || timeoutMs <= 0)
  ) {
    throw invalid("timeoutMs", `expected a positive number (or Infinity), got ${String(timeoutMs)}`);
  }
  if (maxResultChars !== undefined && (!Number.isInteger(maxResultChars) || maxResultChars <= 0)) {
    throw invalid("maxResultChars", `expected a positive integer, got ${String(maxResultChars)}`);
  }
  if (
    needsApproval !== undefined &&
    typeof needsApproval !== "boolean" &&
    typeof needsApproval !== "function"
  ) {
    throw invalid("needsApproval", "expected a boolean or a function");
  }
  checkOptionalBoolean("sequential", options.sequential);
  checkOptionalBoolean("idempotent", options.idempotent);
  checkOptionalBoolean("terminal", options.terminal);
}

/**
 * Defines a tool. `parameters` is a zod schema (the arguments' type is inferred from it), a plain JSON
 * Schema object (arguments are `Record<string, unknown>`, validated against the whole schema: `$ref`, `allOf`,
 * `format`, …), or left out for a tool that takes no arguments. The JSON Schema sent to the model and the
 * argument validator are made here, once. Throws {@link InvalidArgumentError} for
 * an invalid name (`^[a-zA-Z0-9_-]{1,64}$`), a non-string description, a schema whose top level is not an
 * object, or invalid options.
 *
 * @example
 * const weather = tool({
 *   name: "get_weather",
 *   description: "Current weather in a city",
 *   parameters: z.object({ city: z.string().describe("City name") }),
 *   execute: async ({ city }, { signal }) => fetchWeather(city, { signal }),
 * });
 */
export function tool<Schema extends StandardSchemaV1, Result>(
  options: ZodToolOptions<Schema, Result>,
): Tool<InferSchemaOutput<Schema>, Result>;
/**
 * Defines a tool whose `parameters` is a plain JSON Schema: arguments are validated against it and typed as a
 * record, or as `Args` when given (`tool<{ city: string }>({ ... })` — the schema must match it).
 */
export function tool<Args extends Record<string, unknown> = Record<string, unknown>, Result = unknown>(
  options: JsonSchemaToolOptions<Result, Args>,
): Tool<Args, Result>;
/**
 * Defines a tool that takes no arguments (no `parameters`): it is offered to the model with an empty object
 * schema and runs with `{}`, also when the model sends `""` or `null` as its arguments.
 */
export function tool<Result = unknown>(
  options: NoParametersToolOptions<Result>,
): Tool<Record<string, never>, Result>;
export function tool(
  options: ToolOptionsBase<never, unknown> & { parameters?: unknown },
): Tool<never, unknown> {
  checkOptions(options);
  const { jsonSchema, parseArguments } = resolveToolParameters({ parameters: options.parameters });
  const needsApproval = options.needsApproval ?? false;
  const created: Tool<never, unknown> = {
    name: options.name,
    description: options.description,
    parameters: (options.parameters ?? jsonSchema) as StandardSchemaV1 | JsonSchema,
    jsonSchema,
    spec: Object.freeze({ name: options.name, description: options.description, parameters: jsonSchema }),
    timeoutMs: options.timeoutMs,
    maxResultChars: options.maxResultChars,
    needsApproval,
    sequential: options.sequential ?? false,
    idempotent: options.idempotent ?? false,
    terminal: options.terminal ?? false,
    parseArguments: parseArguments as (args: unknown) => Promise<ToolArgumentsResult<never>>,
    execute: options.execute,
    requiresApproval: async (args) =>
      typeof needsApproval === "function" ? Boolean(await needsApproval(args)) : needsApproval,
  };
  return Object.freeze(created);
}
