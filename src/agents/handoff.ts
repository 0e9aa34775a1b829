import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { Message } from "../models/message.js";
import type { Model } from "../models/model.js";
import { type Tool, tool } from "../tools/tool.js";
import type { ToolRegistry } from "../tools/tool-registry.js";

/** What a handoff needs of its target agent (an `Agent`). */
export interface HandoffTarget {
  readonly options: { readonly name?: string | undefined };
  readonly model: Model;
  /** Its own tools. */
  readonly tools: ToolRegistry;
  readonly system: string | undefined;
  /** Its own handoffs, resolved. */
  readonly handoffs: readonly Handoff[];
}

/** Options of {@link handoff}. */
export interface HandoffOptions {
  /** The tool's name. Default `transfer_to_<agent name>`. */
  name?: string;
  /** What the target does, for the model choosing whether to hand over. Default: "Hand the conversation to <name>." */
  description?: string;
  /**
   * What the target sees of the conversation: called with the whole history (system prompt first) before each of
   * its model calls; returns the messages sent instead (the history itself keeps everything). E.g.
   * {@link withoutToolCalls}. Must return a history a provider takes (checked).
   */
  inputFilter?: (messages: readonly Message[]) => Message[];
}

const HANDOFF = Symbol("agentloop.handoff");

/**
 * A handoff to another agent, for `Agent({ handoffs })`: a tool the model calls to hand the conversation over.
 * From the next model call on, the target answers: its model, system prompt and tools (and its own handoffs),
 * on the same history, in the same run (limits, cost, approvals, sessions and run logs as usual).
 * `result.agent` names the agent that answered. See docs/multi-agent.md.
 */
export interface Handoff {
  readonly [HANDOFF]: true;
  /** The agent the conversation is handed to. */
  readonly agent: HandoffTarget;
  /** The target's name (its `name` option). */
  readonly agentName: string;
  /** The tool the model calls. */
  readonly tool: Tool;
  readonly inputFilter: ((messages: readonly Message[]) => Message[]) | undefined;
}

/** A handoff to `agent` (which must have a `name`), with a tool name, description and input filter. */
export function handoff(agent: HandoffTarget, options: HandoffOptions = {}): Handoff {
  const agentName = agent?.options?.name;
  if (agentName === undefined) {
    throw new InvalidArgumentError({
      argument: "handoffs",
      message: "a handoff's agent needs a name (Agent({ name }))",
    });
  }
  if (options.inputFilter !== undefined && typeof options.inputFilter !== "function") {
    throw new InvalidArgumentError({ argument: "inputFilter", message: "expected a function" });
  }
  const name = options.name ?? `transfer_to_${agentName.replace(/[^a-zA-Z0-9_-]/g, "_")}`.slice(0, 64);
  const reply = `Transferred to ${agentName}: it answers from here.`;
  return Object.freeze({
    [HANDOFF]: true as const,
    agent,
    agentName,
    tool: tool({
      name,
      description: options.description ?? `Hand the conversation to ${agentName}.`,
      idempotent: true,
      execute: () => reply,
    }),
    inputFilter: options.inputFilter,
  });
}

/** True for a {@link handoff}. */
export function isHandoff(value: unknown): value is Handoff {
  return typeof value === "object" && value !== null && HANDOFF in value;
}

/**
 * An input filter for {@link handoff}: the history without tool calls and their results (assistant messages
 * keep their text; those with nothing else are dropped), so the target starts from the conversation alone.
 */
export function withoutToolCalls(messages: readonly Message[]): Message[] {
  const kept: Message[] = [];
  for (const message of messages) {
    if (message.role === "tool") continue;
    if (message.role === "assistant" && message.toolCalls !== undefined && message.toolCalls.length > 0) {
      if (message.content !== "") kept.push({ role: "assistant", content: message.content });
      continue;
    }
    kept.push(message);
  }
  return kept;
}

/** The `handoffs` of an agent: agents (with a `name`) or handoffs, or a function returning them. */
export type HandoffsOption =
  | readonly (HandoffTarget | Handoff)[]
  | (() => readonly (HandoffTarget | Handoff)[]);
