import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { ModelToolSpec } from "../models/model.js";
import { checkToolSecrets } from "./check-tool-secrets.js";
import { executeToolCalls, type ToolOutcome } from "./execute-tool-calls.js";
import type { Tool, ToolContext } from "./tool.js";

/**
 * Options of {@link ToolRegistry.execute}: the parts of a {@link ToolContext} to use (all optional), and
 * `approved: true` when a human approved this call of a tool that `needsApproval` (without it such a call is
 * not run: its outcome fails with `ApprovalRequiredError`).
 */
export type ToolRegistryExecuteContext = Partial<Pick<ToolContext, "signal" | "toolCallId" | "turn">> & {
  approved?: boolean;
};

function isTool(value: unknown): value is Tool {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<Record<keyof Tool, unknown>>;
  return (
    typeof candidate.name === "string" &&
    typeof candidate.execute === "function" &&
    typeof candidate.parseArguments === "function" &&
    typeof candidate.spec === "object" &&
    candidate.spec !== null
  );
}

/**
 * The tools an agent can call, by name. `schemas()` returns the same array every time until a tool is
 * registered, so the loop can send an identical `tools` list each turn at no cost.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private cachedSchemas: readonly ModelToolSpec[] | undefined;
  private cachedNames: readonly string[] | undefined;
  private cachedList: readonly Tool[] | undefined;
  private callCount = 0;

  /** Creates a registry, optionally with initial `tools` (see {@link ToolRegistry.registerMany}). */
  constructor({ tools }: { tools?: Iterable<Tool> } = {}) {
    if (tools !== undefined) this.registerMany(tools);
  }

  /**
   * Adds a tool. Throws {@link InvalidArgumentError} if it is not a tool, its name is taken, or its description
   * (or a description in its parameters' schema) contains what looks like a secret: an API key, a bearer token,
   * a password or a private key (see `findSecretInTool`); the message names the tool, the kind of secret
   * and where it is, never the secret itself.
   */
  register(tool: Tool): this {
    if (!isTool(tool))
      throw new InvalidArgumentError({ argument: "tool", message: "expected a tool created by tool()" });
    if (this.tools.has(tool.name)) {
      throw new InvalidArgumentError({
        argument: "tool",
        message: `a tool named "${tool.name}" is already registered`,
      });
    }
    checkToolSecrets({ tool });
    this.tools.set(tool.name, tool);
    this.cachedSchemas = undefined;
    this.cachedNames = undefined;
    this.cachedList = undefined;
    return this;
  }

  /** Adds several tools, in order. Stops at the first invalid or duplicate one (earlier ones stay added). */
  registerMany(tools: Iterable<Tool>): this {
    for (const tool of tools) this.register(tool);
    return this;
  }

  /** The tool named `name`, or undefined. */
  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  /** Whether a tool named `name` is registered. */
  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** The registered tools, in registration order (a cached, frozen array). */
  list(): readonly Tool[] {
    this.cachedList ??= Object.freeze([...this.tools.values()]);
    return this.cachedList;
  }

  /** The registered tool names, in registration order (a cached, frozen array). */
  names(): readonly string[] {
    this.cachedNames ??= Object.freeze([...this.tools.keys()]);
    return this.cachedNames;
  }

  /**
   * The tools as the model sees them, in registration order. Cached and frozen: the same array (holding each
   * tool's own `spec` object) is returned until the registry changes.
   */
  schemas(): readonly ModelToolSpec[] {
    this.cachedSchemas ??= Object.freeze(this.list().map((tool) => tool.spec));
    return this.cachedSchemas;
  }

  /**
   * Runs one call of tool `name` with `args` (not yet validated) through {@link executeToolCalls} and resolves
   * with its outcome; never rejects for tool failures. `ctx` may give the signal, call id (default
   * `"call_<n>"`), turn (default 0) and `approved` (a gated tool runs only with `approved: true`).
   */
  async execute(name: string, args: unknown, ctx: ToolRegistryExecuteContext = {}): Promise<ToolOutcome> {
    this.callCount++;
    let rawArguments: string;
    try {
      rawArguments = JSON.stringify(args) ?? "";
    } catch {
      rawArguments = "";
    }
    const call = { id: ctx.toolCallId ?? `call_${this.callCount}`, name, arguments: args, rawArguments };
    const outcomes = await executeToolCalls({
      calls: [call],
      registry: this,
      turn: ctx.turn ?? 0,
      ...(ctx.signal !== undefined && { signal: ctx.signal }),
      ...(ctx.approved === true && { approved: new Set([call.id]) }),
    });
    return outcomes[0] as ToolOutcome;
  }
}
