import { z } from "zod";
import { Agent, type AgentOptions } from "../../agent.js";
import type { Message } from "../../models/message.js";
import { ScriptedModel } from "../../testing/scripted-model.js";
import type { ScriptedStep } from "../../testing/scripted-step.js";
import { type Tool, type ToolContext, tool } from "../../tools/tool.js";
import { MemoryJournal } from "../memory-journal.js";
import { runDurably } from "../run-durably.js";

/** The task of the test runs. */
export const INPUT = "Buy one widget at its current price.";

/** The prior conversation given to the test runs. */
export const PRIOR: Message[] = [
  { role: "user", content: "Hi" },
  { role: "assistant", content: "Hello! How can I help?" },
];

/** An idempotent lookup, then a (non-idempotent) charge, then the answer. */
export const STEPS: ScriptedStep[] = [
  { text: "Looking up the price.", toolCalls: [{ id: "c1", name: "lookup", arguments: { item: "widget" } }] },
  { toolCalls: [{ id: "c2", name: "charge", arguments: { amount: 5 } }] },
  { text: "Bought one widget for 5." },
];

/** A tool behaviour: what `execute` does instead of the default. */
export type Behaviour = (ctx: ToolContext) => unknown;

/** The test tools with counters: executions and the idempotency keys they were given. */
export interface Harness {
  tools: Tool[];
  executions: { lookup: number; charge: number };
  keys: { lookup: string[]; charge: string[] };
}

/**
 * `lookup` (idempotent) returns a price, `charge` (not idempotent) charges; both count their executions and
 * keep their `ctx.idempotencyKey`. A behaviour replaces a tool's result (e.g. to simulate a crash).
 */
export function harness(behaviour: { lookup?: Behaviour; charge?: Behaviour } = {}): Harness {
  const executions = { lookup: 0, charge: 0 };
  const keys: Harness["keys"] = { lookup: [], charge: [] };
  const lookup = tool({
    name: "lookup",
    description: "Current price of an item",
    parameters: z.object({ item: z.string() }),
    idempotent: true,
    execute: ({ item }, ctx) => {
      executions.lookup++;
      keys.lookup.push(ctx.idempotencyKey ?? "");
      return behaviour.lookup ? behaviour.lookup(ctx) : { item, price: 5 };
    },
  });
  const charge = tool({
    name: "charge",
    description: "Charges the card",
    parameters: z.object({ amount: z.number() }),
    execute: ({ amount }, ctx) => {
      executions.charge++;
      keys.charge.push(ctx.idempotencyKey ?? "");
      return behaviour.charge ? behaviour.charge(ctx) : `charged ${amount}`;
    },
  });
  return { tools: [lookup, charge], executions, keys };
}

/**
 * A behaviour simulating a crash while the tool runs: the run's controller is aborted (the process "dies")
 * and the tool never returns anything the run could use.
 */
export function crashWhileRunning(controller: AbortController): Behaviour {
  return (ctx) => {
    controller.abort(new Error("simulated crash"));
    return new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve("too late")));
  };
}

/** A scripted step failing like a crash during the model call. */
export const CRASH_STEP: ScriptedStep = { error: new Error("simulated crash") };

/** An agent on a new ScriptedModel playing `steps`, with `tools`. */
export function agentWith(args: { steps: ScriptedStep[]; tools: Tool[]; options?: Partial<AgentOptions> }): {
  agent: Agent;
  model: ScriptedModel;
} {
  const model = new ScriptedModel(args.steps);
  return { agent: new Agent({ model, tools: args.tools, system: "Be brief.", ...args.options }), model };
}

/** The uninterrupted run every resumed run is compared with. */
export async function reference(stream = false) {
  const tools = harness();
  const { agent, model } = agentWith({ steps: STEPS, tools: tools.tools });
  const summary = await runDurably({
    agent,
    journal: new MemoryJournal(),
    runId: "reference",
    input: INPUT,
    messages: PRIOR,
    stream,
  });
  if (summary.stopReason !== "completed")
    throw new Error(`the reference run stopped with ${summary.stopReason}`);
  return { summary, model, tools };
}
