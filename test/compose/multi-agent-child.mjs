// One process of multi-agent-e2e-durable.test.ts: builds the team afresh from the BUILT package (a lead on
// OpenAI Chat with a researcher and a writer on Anthropic; the writer's `publish` needs approval), then either
// starts a durable run (MODE=start) or resumes it by id with the decisions in APPROVE (MODE=resume). The run
// log is a FileJournal in JOURNAL_DIR; `publish` appends a line to EFFECTS. Prints one line of JSON.
import { appendFileSync } from "node:fs";
import { Agent, createAnthropic, createOpenAI, FileJournal, tool } from "agentloop";
import { z } from "zod";

const env = process.env;
const prompts = JSON.parse(env.PROMPTS);
const pricing = JSON.parse(env.PRICING);
const openai = createOpenAI({ baseURL: env.OPENAI_URL, apiKey: "k" });
const anthropic = createAnthropic({ baseURL: env.ANTHROPIC_URL, apiKey: "k" });
const journal = new FileJournal({ dir: env.JOURNAL_DIR });

const publish = tool({
  name: "publish",
  description: "Publishes a post.",
  parameters: z.object({ title: z.string() }),
  needsApproval: true,
  execute: async ({ title }) => {
    appendFileSync(env.EFFECTS, `published ${title} (pid ${process.pid})\n`);
    return `published "${title}"`;
  },
});
const researcher = new Agent({
  name: "researcher",
  model: anthropic("claude-sonnet-4-5"),
  system: prompts.researcher,
  pricing,
});
const writer = new Agent({
  name: "writer",
  model: anthropic("claude-haiku-4-5"),
  system: prompts.writer,
  tools: [publish],
  pricing,
});
const lead = new Agent({
  name: "lead",
  model: openai("gpt-4o-mini"),
  system: prompts.lead,
  tools: [
    researcher.asTool({ name: "research", description: "Researches a question." }),
    writer.asTool({ name: "write", description: "Writes and publishes a post." }),
  ],
  journal,
  pricing,
});

const result =
  env.MODE === "start"
    ? await lead.run("Research Paris and publish a post about it.", { runId: env.RUN_ID })
    : await lead.resume(env.RUN_ID, { approve: JSON.parse(env.APPROVE) });
const summary = {
  stopReason: result.stopReason,
  text: result.text,
  error: result.error?.message,
  pendingApprovals: result.pendingApprovals,
  usage: result.usage,
  costUsd: result.costUsd,
  events: result.events.map((e) => `${e.agent ?? "lead"}:${e.type}${e.replayed ? ":replayed" : ""}`),
};
process.stdout.write(`${JSON.stringify(summary)}\n`);
