// npm run example -- team — agents that work together (docs/multi-agent.md).
//
// 1. Sub-agents: a lead agent calls two agents as tools: a researcher (a typed answer, returned to the lead as
//    JSON) and a writer (a custom argument schema) whose `publish` tool needs approval. The stream carries every
//    agent's events, tagged with its path (`event.agent`: "lead/researcher"). The approval inside the writer
//    pauses the whole run; the paused result is JSON, and `lead.resume` continues the writer where it stopped.
// 2. A handoff: triage hands the conversation to billing, which answers with its own prompt and tools
//    (`result.agent` says who answered).
//
// Without OPENAI_API_KEY every agent talks to agentloop's mock OpenAI-compatible server, scripted per agent
// (it tells them apart by their system prompts); with a key they all use the real API.
import { Agent, tool } from "agentloop";
import { handoff } from "agentloop/agents";
import { z } from "zod";
import { exampleModel, toolResults } from "./lib/example-model.mjs";

const SYSTEM = {
  lead: "You lead a small team. Ask the researcher for facts, then have the writer write and publish a short post.",
  researcher: "You are a researcher. Look things up in the notes and answer with the facts only.",
  writer: "You are a writer. Write a three-sentence post from the facts you are given, then publish it.",
  triage: "You are the front desk. Hand billing questions (refunds, invoices) to billing.",
  billing: "You are billing. You can refund orders.",
};

// --- the mock model: one script per agent, chosen by the agent's system prompt ------------------------------
function script(body) {
  const system = body.messages[0]?.role === "system" ? body.messages[0].content : "";
  const results = toolResults(body);
  switch (system) {
    case SYSTEM.lead:
      if (results.length === 0)
        return {
          text: "Let me ask the researcher first.",
          toolCalls: [{ id: "call_research", name: "research", arguments: { input: "Heat pumps in 2024" } }],
        };
      if (results.length === 1) {
        const { facts } = JSON.parse(results[0]);
        return {
          toolCalls: [{ id: "call_write", name: "write", arguments: { topic: "Heat pumps in 2024", facts } }],
        };
      }
      return { text: `Done. The writer says: ${results[1]}` };
    case SYSTEM.researcher:
      if (results.length === 0)
        return {
          toolCalls: [{ id: "call_notes", name: "search_notes", arguments: { query: "heat pumps" } }],
        };
      // The researcher has a typed answer: native structured output answers with the schema's JSON.
      return { text: JSON.stringify({ facts: results[0].split("\n") }) };
    case SYSTEM.writer: {
      if (results.length > 0) return { text: `Published: ${results[0]}` };
      const { topic, facts } = JSON.parse(body.messages.at(-1).content);
      const post = `${topic}: ${facts.join(" ")} Worth a look for your home.`;
      return {
        toolCalls: [{ id: "call_publish", name: "publish", arguments: { title: topic, body: post } }],
      };
    }
    case SYSTEM.triage:
      return {
        text: "Billing can help with that.",
        toolCalls: [{ id: "call_transfer", name: "transfer_to_billing", arguments: {} }],
      };
    case SYSTEM.billing:
      if (!results.some((r) => r.startsWith("Refunded")))
        return { toolCalls: [{ id: "call_refund", name: "refund", arguments: { orderId: "A-1042" } }] };
      return { text: "Your order A-1042 is refunded: expect the money within 3 days." };
    default:
      return { text: "I am not part of this team." };
  }
}

const { model, close } = await exampleModel({ script });

// --- the team ------------------------------------------------------------------------------------------------
const searchNotes = tool({
  name: "search_notes",
  description: "Search the team's notes; returns matching lines.",
  parameters: z.object({ query: z.string() }),
  execute: () =>
    "Heat pump sales in Europe fell in 2024 after two record years.\nA heat pump moves 3-4 units of heat per unit of electricity.",
});

const posts = [];
const publish = tool({
  name: "publish",
  description: "Publish a post on the blog.",
  parameters: z.object({ title: z.string(), body: z.string() }),
  needsApproval: true, // a human says yes first
  execute: ({ title, body }) => {
    posts.push({ title, body });
    return `https://blog.example/posts/${posts.length}`;
  },
});

const researcher = new Agent({
  name: "researcher",
  model,
  system: SYSTEM.researcher,
  tools: [searchNotes],
  output: z.object({ facts: z.array(z.string()) }), // its answer reaches the lead as this JSON
  limits: { maxTurns: 5 },
});
const writer = new Agent({
  name: "writer",
  model,
  system: SYSTEM.writer,
  tools: [publish],
  limits: { maxTurns: 5 },
});

const lead = new Agent({
  name: "lead",
  model,
  system: SYSTEM.lead,
  tools: [
    // The default argument: { input: string }, the task given to the researcher as is.
    researcher.asTool({ name: "research", description: "Finds facts about a topic." }),
    // A schema of your own: the writer's task is these arguments as JSON.
    writer.asTool({
      name: "write",
      description: "Writes a short post from facts and publishes it.",
      input: z.object({ topic: z.string(), facts: z.array(z.string()) }),
    }),
  ],
  limits: { maxTurns: 8, maxCostUsd: 0.5 }, // the cap holds for the lead and its sub-agents together
});

// --- printing events, with the agent they come from ----------------------------------------------------------
let line; // the agent whose streamed text is on the current line
function show(event) {
  const who = event.agent ?? "lead";
  if (event.type === "text_delta") {
    if (line !== who) process.stdout.write(`${line === undefined ? "" : "\n"}[${who}] `);
    line = who;
    process.stdout.write(event.data.delta);
    return;
  }
  const print = (text) => {
    if (line !== undefined) process.stdout.write("\n");
    line = undefined;
    console.log(`[${who}] ${text}`);
  };
  const short = (text) => (text.length > 100 ? `${text.slice(0, 100)}…` : text).replace(/\s+/g, " ");
  if (event.type === "action")
    print(`→ ${event.data.toolName}(${short(JSON.stringify(event.data.arguments))})`);
  if (event.type === "observation") print(`← ${event.data.toolName}: ${short(event.data.result)}`);
  if (event.type === "approval_requested" && event.agent === undefined)
    print(`⏸ waiting for approval: ${event.data.calls.map((c) => `${c.toolName} (in ${c.agent ?? who})`)}`);
  if (event.type === "loop_end") print(`■ ${event.data.stopReason}`);
}

// --- 1. sub-agents, and an approval inside one ----------------------------------------------------------------
console.log("== Sub-agents ==");
const stream = lead.stream("Write and publish a short post about heat pumps in 2024.");
for await (const event of stream) show(event);
const paused = await stream.result;

let result = paused;
if (paused.stopReason === "awaiting_approval") {
  for (const call of paused.pendingApprovals ?? [])
    console.log(`  pending: ${call.toolName} ${JSON.stringify(call.arguments)}\n    asked by ${call.agent}`);
  const stored = JSON.stringify(paused); // the paused result is JSON (pausedTurn included): store it anywhere
  const approve = (paused.pendingApprovals ?? []).map((call) => call.toolCallId);
  console.log(`human: approve ${approve.join(", ")}`); // a real app asks a person here (see approval.mjs)
  result = await lead.resume(JSON.parse(stored), { approve });
  for (const event of result.events) show(event); // resume has no stream: its events are in the result
}
const costUsd = paused === result ? result.costUsd : paused.costUsd + result.costUsd;
console.log(`\nanswer (${result.stopReason}): ${result.text}`);
console.log(`posts published: ${posts.length}${posts[0] ? ` ("${posts[0].title}")` : ""}`);
const byAgent = {};
for (const event of paused === result ? result.events : [...paused.events, ...result.events])
  byAgent[event.agent ?? "lead"] = (byAgent[event.agent ?? "lead"] ?? 0) + 1;
console.log(
  `events by agent: ${Object.entries(byAgent)
    .map(([who, n]) => `${who} ${n}`)
    .join(", ")}`,
);
console.log(`total cost, lead and sub-agents: $${costUsd.toFixed(6)}`);

// --- 2. a handoff ---------------------------------------------------------------------------------------------
console.log("\n== Handoff ==");
const refund = tool({
  name: "refund",
  description: "Refund an order.",
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => `Refunded ${orderId}.`,
});
const billing = new Agent({ name: "billing", model, system: SYSTEM.billing, tools: [refund] });
const triage = new Agent({
  name: "triage",
  model,
  system: SYSTEM.triage,
  handoffs: [handoff(billing, { description: "Refunds, invoices and payments." })],
});
const answer = await triage.run("I was charged for order A-1042 but never got it. Can I have my money back?");
for (const call of answer.toolCalls) console.log(`→ ${call.name}(${JSON.stringify(call.arguments)})`);
console.log(`answered by: ${answer.agent}\nanswer (${answer.stopReason}): ${answer.text}`);

await close();
