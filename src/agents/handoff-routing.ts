import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { AgentEvent } from "../loop/agent-event.js";
import type { AgentLoopOutcome } from "../loop/agent-loop.js";
import type { PrepareStep, StepInfo, StepOverrides } from "../loop/policies/prepare-step.js";
import type { Message } from "../models/message.js";
import type { Model } from "../models/model.js";
import type { Tool } from "../tools/tool.js";
import type { Handoff, HandoffTarget } from "./handoff.js";

/** One agent a run may be handed to: what its model calls get. */
interface Route {
  name: string;
  /** The tools it is offered: its own, and its handoffs'. */
  tools: readonly string[];
  /** Its model and system prompt (undefined for the run's own agent: the run's). */
  model: Model | undefined;
  system: string | undefined;
  filter: ((messages: readonly Message[]) => Message[]) | undefined;
}

/** Where each run of an agent with handoffs is: the agent answering, and how much of the history it has read. */
interface RunPosition {
  read: number;
  active: Route;
}

/**
 * The handoffs of an agent, resolved: every agent reachable from it (its handoffs', theirs, …), the tools of
 * them all (the run's registry: tool names are unique across them), and the step policy that routes each model
 * call to the agent answering now — decided from the history (the last successful handoff call), so a durable
 * run's replay and a session's next run take the same route.
 */
export class HandoffRouting {
  /** Every tool of every reachable agent, handoff tools included. */
  readonly tools: Tool[] = [];
  private readonly routes = new Map<string, Route>();
  private readonly root: Route;
  private readonly runs = new WeakMap<AbortSignal, RunPosition>();

  constructor(args: { name: string; tools: readonly Tool[]; handoffs: readonly Handoff[] }) {
    const byName = new Map<string, Tool>();
    const add = (tool: Tool, owner: string) => {
      const known = byName.get(tool.name);
      if (known === undefined) {
        byName.set(tool.name, tool);
        this.tools.push(tool);
      } else if (known !== tool) {
        throw new InvalidArgumentError({
          argument: "handoffs",
          message: `two agents reachable by handoff have different tools named "${tool.name}" (one of them is ${owner}'s): rename one`,
        });
      }
    };
    this.root = { ...route(args.name, args.tools, args.handoffs), model: undefined, system: undefined };
    for (const tool of args.tools) add(tool, args.name);
    const queue = [...args.handoffs];
    const seen = new Set<HandoffTarget>();
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const known = this.routes.get(next.tool.name);
      if (known !== undefined) {
        // Two agents hand over to the same agent under the same name: one route (the first one's filter).
        if (known.name === next.agentName) continue;
        throw new InvalidArgumentError({
          argument: "handoffs",
          message: `two handoff tools are named "${next.tool.name}" (to ${known.name} and to ${next.agentName})`,
        });
      }
      add(next.tool, next.agentName);
      const target = next.agent;
      const handoffs = target.handoffs;
      this.routes.set(next.tool.name, {
        ...route(next.agentName, target.tools.list(), handoffs),
        model: target.model,
        system: target.system,
        filter: next.inputFilter,
      });
      if (seen.has(target)) continue;
      seen.add(target);
      for (const tool of target.tools.list()) add(tool, next.agentName);
      queue.push(...handoffs);
    }
  }

  /** The run's step hook: the answering agent's model, tools, system prompt and filter, then `hook`'s overrides. */
  prepareStep(hook: PrepareStep | undefined): PrepareStep {
    return async (step) => {
      const routed = this.overrides(step);
      const own = hook === undefined ? undefined : await hook(step);
      return own === undefined || own === null ? routed : { ...routed, ...own };
    };
  }

  /** The models of the agents the run may be handed to (each once). */
  models(): Model[] {
    const models = [...this.routes.values()].flatMap((route) =>
      route.model === undefined ? [] : [route.model],
    );
    return [...new Set(models)];
  }

  /** The name of the agent answering at the end of `messages` (the run's own when nothing was handed over). */
  activeAgent(messages: readonly Message[]): string {
    return this.advance({ read: 0, active: this.root }, messages).active.name;
  }

  /**
   * Wraps a run's events: its outcome says which agent answered (`result.agent`): the target of the run's last
   * successful handoff call, else the one its history was handed to before the run.
   */
  async *named(events: AsyncGenerator<AgentEvent, unknown>): AsyncGenerator<AgentEvent, unknown> {
    let handedTo: Route | undefined;
    while (true) {
      const next = await events.next();
      if (next.done === true) {
        const outcome = next.value as AgentLoopOutcome | undefined;
        if (outcome !== undefined && outcome !== null) {
          outcome.agent = handedTo?.name ?? this.activeAgent(outcome.messages);
        }
        return outcome;
      }
      const event = next.value;
      if (event.type === "observation" && event.agent === undefined && event.data.ok) {
        handedTo = this.routes.get(event.data.toolName) ?? handedTo;
      }
      yield event;
    }
  }

  private overrides(step: StepInfo): StepOverrides {
    let position = this.runs.get(step.signal);
    if (position === undefined) position = { read: 0, active: this.root };
    // A history that got shorter was compacted: read it again from the start (the agent answering stays, unless
    // the history hands over again).
    else if (step.messages.length < position.read) position.read = 0;
    this.runs.set(step.signal, this.advance(position, step.messages));
    const { active } = position;
    const overrides: StepOverrides = { tools: active.tools };
    if (active === this.root) return overrides;
    if (active.model !== undefined) overrides.model = active.model;
    let messages = active.filter?.(step.messages);
    if (active.system !== undefined) overrides.system = active.system;
    // A target without a system prompt gets none (not the first agent's).
    else messages = (messages ?? step.messages).filter((message) => message.role !== "system");
    if (messages !== undefined) overrides.messages = messages;
    return overrides;
  }

  /** Reads the messages after `position.read`: each successful handoff call moves the conversation on. */
  private advance(position: RunPosition, messages: readonly Message[]): RunPosition {
    for (let i = position.read; i < messages.length; i++) {
      const message = messages[i];
      if (message?.role !== "tool" || message.isError === true) continue;
      const next = this.routes.get(message.toolName);
      if (next !== undefined) position.active = next;
    }
    position.read = messages.length;
    return position;
  }
}

function route(name: string, tools: readonly Tool[], handoffs: readonly Handoff[]) {
  const names = [...tools.map((tool) => tool.name), ...handoffs.map((h) => h.tool.name)];
  return { name, tools: names, filter: undefined };
}
