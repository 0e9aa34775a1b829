import { Agent } from "../../agent.js";
import { ScriptedModel } from "../../testing/scripted-model.js";
import type { Trace } from "../../trace/trace-types.js";

/**
 * The trace of a streamed run with sub-agents: lead calls research (the researcher), which calls fetch (the
 * fetcher), which streams "page"; the researcher answers "Paris has 2.1M people.", the lead
 * "About 2.1 million.".
 */
export async function subAgentTrace(): Promise<Trace> {
  const fetcher = new Agent({ name: "fetcher", model: new ScriptedModel([{ text: "page" }]) });
  const researcher = new Agent({
    name: "researcher",
    model: new ScriptedModel([
      { toolCalls: [{ id: "f1", name: "fetch", arguments: { input: "https://example.com" } }] },
      { text: "Paris has 2.1M people." },
    ]),
    tools: [fetcher.asTool({ name: "fetch", description: "fetches a page" })],
  });
  const lead = new Agent({
    name: "lead",
    model: new ScriptedModel([
      { toolCalls: [{ id: "c1", name: "research", arguments: { input: "population of Paris" } }] },
      { text: "About 2.1 million." },
    ]),
    tools: [researcher.asTool({ name: "research", description: "researches a question" })],
    trace: true,
  });
  const run = lead.stream("How many people live in Paris?");
  for await (const _ of run) {
    // the events are in the trace
  }
  const { trace } = await run.result;
  if (trace === undefined) throw new Error("the run recorded no trace");
  return trace;
}
