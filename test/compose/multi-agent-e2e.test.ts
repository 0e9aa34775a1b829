// Multi-agent runs end to end (issue #19, "Done when"), from the outside: the BUILT package (dist/, as users
// import it), the real OpenAI Chat and Anthropic Messages clients, and local servers speaking their wire
// formats (wire-mock-server.ts, shapes from test/fixtures/recorded/). A lead on OpenAI with two sub-agents (a
// researcher on Anthropic, a writer on another OpenAI model); a shared cost cap; a handoff across providers;
// a client that stops reading mid-sub-agent. (The approval across processes: multi-agent-e2e-durable.test.ts.)
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type * as AgentsApi from "../../src/agents/index.js";
import type * as Agentloop from "../../src/index.js";
import { type Served, scripted, startWireServer, type WireServer } from "./wire-mock-server.js";

const dist = (entry: string) => new URL(`../../dist/${entry}`, import.meta.url).href;
const { Agent, Budget, createAnthropic, createOpenAI, tool } = (await import(
  dist("index.js")
)) as typeof Agentloop;
const { handoff } = (await import(dist("agents/index.js"))) as typeof AgentsApi;

const PRICING = {
  "gpt-4o-mini": { inputPerMTok: 1, outputPerMTok: 4 },
  "gpt-4.1-mini": { inputPerMTok: 2, outputPerMTok: 8 },
  "claude-sonnet-4-5": { inputPerMTok: 3, outputPerMTok: 15 },
};
const SYSTEM = {
  lead: "You lead a research team. Delegate research, then writing.",
  researcher: "You research facts with the search tool.",
  writer: "You write one crisp line.",
};

/** What the servers were paid, at PRICING: tokens and USD over every answered request. */
function spent(served: Served[]) {
  let inputTokens = 0;
  let outputTokens = 0;
  let costUsd = 0;
  for (const { usage, model } of served) {
    if (usage === undefined) continue;
    const price = PRICING[model as keyof typeof PRICING];
    inputTokens += usage.input;
    outputTokens += usage.output;
    costUsd += (usage.input * price.inputPerMTok + usage.output * price.outputPerMTok) / 1e6;
  }
  return { inputTokens, outputTokens, costUsd };
}

const servers: WireServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

type Respond = Parameters<typeof startWireServer>[0]["respond"];

/** Starts an OpenAI and an Anthropic server (closed after the test). */
async function start(respond: { openai: Respond; anthropic: Respond }) {
  const openai = await startWireServer({ wire: "openai", respond: respond.openai });
  const anthropic = await startWireServer({ wire: "anthropic", respond: respond.anthropic });
  servers.push(openai, anthropic);
  return { openai, anthropic };
}

/** The team: a lead (OpenAI) with a researcher (Anthropic, a search tool) and a writer (OpenAI) as tools. */
function team(args: { openai: WireServer; anthropic: WireServer; lead?: Partial<Agentloop.AgentOptions> }) {
  const oa = createOpenAI({ baseURL: args.openai.url, apiKey: "k" });
  const an = createAnthropic({ baseURL: args.anthropic.url, apiKey: "k" });
  const searches: string[] = [];
  const search = tool({
    name: "search",
    description: "Searches the web.",
    parameters: z.object({ q: z.string() }),
    execute: async ({ q }) => {
      searches.push(q);
      return `results for ${q}: 2.1M`;
    },
  });
  const common = { pricing: PRICING, maxOutputTokens: 500 };
  const researcher = new Agent({
    name: "researcher",
    model: an("claude-sonnet-4-5"),
    system: SYSTEM.researcher,
    tools: [search],
    ...common,
  });
  const writer = new Agent({ name: "writer", model: oa("gpt-4.1-mini"), system: SYSTEM.writer, ...common });
  const lead = new Agent({
    name: "lead",
    model: oa("gpt-4o-mini"),
    system: SYSTEM.lead,
    tools: [
      researcher.asTool({ name: "research", description: "Researches a question." }),
      writer.asTool({ name: "write", description: "Writes the text." }),
    ],
    ...common,
    ...args.lead,
  });
  return { lead, searches };
}

const deferred = () => {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe("a lead with two sub-agents over HTTP (built package)", () => {
  it("streams nested events in place, tagged with their path; usage and cost add up over the three agents", async () => {
    // Each sub-agent's answer stops after its first text delta until the test has SEEN that delta in the
    // lead's stream: nested deltas must arrive live (were they buffered to the end, this would hang).
    const researcherSeen = deferred();
    const writerSeen = deferred();
    const lead = scripted({
      [SYSTEM.lead]: [
        {
          toolCalls: [{ id: "call_r", name: "research", arguments: { input: "Population of Paris?" } }],
          usage: { input: 120, output: 20 },
        },
        {
          toolCalls: [{ id: "call_w", name: "write", arguments: { input: "One line on Paris." } }],
          usage: { input: 210, output: 25 },
        },
        { text: ["Report: ", "Paris has 2.1M people."], usage: { input: 260, output: 12 } },
      ],
      [SYSTEM.writer]: [
        {
          text: ["Paris: ", "2.1 million people."],
          usage: { input: 90, output: 9 },
          holdAfterFirstDelta: writerSeen.promise,
        },
      ],
    });
    const research = scripted({
      [SYSTEM.researcher]: [
        {
          text: ["Let me search."],
          toolCalls: [{ id: "toolu_s1", name: "search", arguments: { q: "Paris population" } }],
          usage: { input: 377, output: 65 },
        },
        {
          text: ["Paris has ", "about 2.1M ", "people."],
          usage: { input: 450, output: 14 },
          holdAfterFirstDelta: researcherSeen.promise,
        },
      ],
    });
    const { openai, anthropic } = await start({ openai: lead.respond, anthropic: research.respond });
    const { lead: agent, searches } = team({ openai, anthropic });

    const stream = agent.stream("Write a one-line report on the population of Paris.");
    const events: Agentloop.AgentEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (event.type === "text_delta" && event.agent === "lead/researcher") researcherSeen.resolve();
      if (event.type === "text_delta" && event.agent === "lead/writer") writerSeen.resolve();
    }
    const result = await stream.result;
    expect(result.error).toBeUndefined();
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("Report: Paris has 2.1M people.");
    expect(searches).toEqual(["Paris population"]);
    expect(new Set(events.map((e) => e.agent))).toEqual(
      new Set([undefined, "lead/researcher", "lead/writer"]),
    );

    for (const [callId, path, answer] of [
      ["call_r", "lead/researcher", "Paris has about 2.1M people."],
      ["call_w", "lead/writer", "Paris: 2.1 million people."],
    ] as const) {
      const own = (type: string) =>
        events.findIndex(
          (e) =>
            e.agent === undefined &&
            e.type === type &&
            "toolCallId" in e.data &&
            e.data.toolCallId === callId,
        );
      const [action, observation] = [own("action"), own("observation")];
      const nested = events.flatMap((e, i) => (e.agent === path ? [i] : []));
      expect(action).toBeGreaterThanOrEqual(0);
      expect(nested[0]).toBeGreaterThan(action);
      expect(nested.at(-1)).toBeLessThan(observation);
      const types = nested.map((i) => events[i]?.type);
      expect(types[0]).toBe("loop_start");
      expect(types.at(-1)).toBe("loop_end");
      const text = nested.flatMap((i) => {
        const e = events[i];
        return e?.type === "text_delta" ? [e.data.delta] : [];
      });
      expect(text.join("")).toContain(answer);
      const obs = events[observation];
      expect(obs?.type === "observation" && obs.data.result).toBe(answer);
    }
    const researcherTypes = events.filter((e) => e.agent === "lead/researcher").map((e) => e.type);
    expect(researcherTypes.filter((t) => t === "model_call")).toHaveLength(2);
    expect(researcherTypes).toContain("action"); // its own search call, nested too

    // What went over the wire: each agent's own model, system prompt and tools; the answers fed back.
    expect(anthropic.served.map((s) => [s.model, s.system, s.tools, s.stream])).toEqual([
      ["claude-sonnet-4-5", SYSTEM.researcher, ["search"], true],
      ["claude-sonnet-4-5", SYSTEM.researcher, ["search"], true],
    ]);
    expect(openai.served.map((s) => s.model)).toEqual([
      "gpt-4o-mini",
      "gpt-4o-mini",
      "gpt-4.1-mini",
      "gpt-4o-mini",
    ]);
    expect(openai.served[0]?.tools).toEqual(["research", "write"]);
    expect(openai.served[2]?.tools).toEqual([]);
    const toolResults = (openai.served[3]?.messages ?? [])
      .filter((m) => m.role === "tool")
      .map((m) => m.content);
    expect(toolResults).toEqual(["Paris has about 2.1M people.", "Paris: 2.1 million people."]);
    expect([lead.repeated, research.repeated]).toEqual([[], []]);

    // Usage and cost: the sum over the six calls of the three agents, as the servers reported them.
    const paid = spent([...openai.served, ...anthropic.served]);
    expect(paid.inputTokens).toBe(120 + 210 + 260 + 90 + 377 + 450);
    expect(result.usage).toMatchObject({ inputTokens: paid.inputTokens, outputTokens: paid.outputTokens });
    expect(result.costUsd).toBeCloseTo(paid.costUsd, 12);
    expect(result.costUnknownModels).toEqual([]);
    expect(result.turns).toBe(3); // the lead's own model calls
  });

  const caps = [
    { name: "limits.maxCostUsd on the lead", budget: undefined as Agentloop.Budget | undefined },
    { name: "a shared Budget", budget: new Budget({ limitUsd: 0.05 }) },
  ];
  it.each(caps)(
    "$name stops a sub-agent mid-way; the whole run ends cost_limit within the cap",
    async ({ budget }) => {
      const CAP = 0.05;
      // The lead delegates again and again; the researcher searches forever: only the cap can stop them.
      const { openai, anthropic } = await start({
        openai: ({ turn }) => ({
          toolCalls: [{ id: `call_${turn}`, name: "research", arguments: { input: `question ${turn}` } }],
          usage: { input: 1_000, output: 500 },
        }),
        anthropic: ({ turn }) => ({
          toolCalls: [{ id: `toolu_${turn}`, name: "search", arguments: { q: `query ${turn}` } }],
          usage: { input: 1_000, output: 500 },
        }),
      });
      const options =
        budget === undefined
          ? { limits: { maxCostUsd: CAP, maxTurns: 50 } }
          : { budget, limits: { maxTurns: 50 } };
      const { lead, searches } = team({ openai, anthropic, lead: options });
      const result = await lead.run("Research Paris until told to stop.");

      expect(result.stopReason).toBe("cost_limit");
      const paid = spent([...openai.served, ...anthropic.served]);
      expect(paid.costUsd).toBeLessThanOrEqual(CAP); // what the providers billed
      expect(result.costUsd).toBeCloseTo(paid.costUsd, 12);
      expect(result.usage.inputTokens).toBe(paid.inputTokens);
      if (budget !== undefined) expect(budget.spentUsd).toBeCloseTo(paid.costUsd, 12);
      // The first sub-run made several calls, then the cap stopped it before its next one.
      const sub = result.events.filter((e) => e.agent === "lead/researcher");
      const firstEnd = sub.findIndex((e) => e.type === "loop_end");
      const firstStop = sub[firstEnd];
      expect(firstStop?.type === "loop_end" && firstStop.data.stopReason).toBe("cost_limit");
      const subCalls = sub.slice(0, firstEnd).filter((e) => e.type === "model_call").length;
      expect(subCalls).toBeGreaterThanOrEqual(2);
      expect(searches.length).toBeGreaterThanOrEqual(subCalls - 1);
      // Its failure went back to the lead as the call's result.
      const observation = result.events.find((e) => e.agent === undefined && e.type === "observation");
      expect(observation?.type === "observation" && observation.data.ok).toBe(false);
      expect(anthropic.served.length).toBeGreaterThanOrEqual(subCalls);
    },
  );
});

describe("a handoff over HTTP (built package)", () => {
  it("triage on OpenAI hands over to billing on Anthropic: billing's own system prompt, tools and model answer", async () => {
    const triageScript = scripted({
      "You are triage.": [
        {
          toolCalls: [{ id: "call_h", name: "transfer_to_billing", arguments: {} }],
          usage: { input: 80, output: 10 },
        },
      ],
    });
    const billingScript = scripted({
      // Billing's first turn comes after the triage's handoff call: one assistant message in its history.
      "You are billing.": [
        undefined,
        {
          toolCalls: [{ id: "toolu_r", name: "refund", arguments: { order: "A7" } }],
          usage: { input: 150, output: 30 },
        },
        { text: ["Your refund ", "for A7 is on its way."], usage: { input: 200, output: 12 } },
      ],
    });
    const { openai, anthropic } = await start({
      openai: triageScript.respond,
      anthropic: billingScript.respond,
    });
    const refunds: string[] = [];
    const refund = tool({
      name: "refund",
      description: "Refunds an order.",
      parameters: z.object({ order: z.string() }),
      execute: async ({ order }) => {
        refunds.push(order);
        return `refunded ${order}`;
      },
    });
    const lookup = tool({
      name: "lookup_order",
      description: "Finds an order.",
      execute: async () => "order A7",
    });
    const billing = new Agent({
      name: "billing",
      model: createAnthropic({ baseURL: anthropic.url, apiKey: "k" })("claude-sonnet-4-5"),
      system: "You are billing.",
      tools: [refund],
      pricing: PRICING,
    });
    const triage = new Agent({
      name: "triage",
      model: createOpenAI({ baseURL: openai.url, apiKey: "k" })("gpt-4o-mini"),
      system: "You are triage.",
      tools: [lookup],
      handoffs: [handoff(billing, { description: "Billing questions and refunds." })],
      pricing: PRICING,
    });
    const result = await triage.run("I want my money back for order A7.");

    expect(result.stopReason).toBe("completed");
    expect(result.agent).toBe("billing");
    expect(result.text).toBe("Your refund for A7 is on its way.");
    expect(refunds).toEqual(["A7"]);
    expect(openai.served.map((s) => [s.model, s.system, s.tools])).toEqual([
      ["gpt-4o-mini", "You are triage.", ["lookup_order", "transfer_to_billing"]],
    ]);
    const offered = (
      (openai.served[0]?.body.tools ?? []) as Array<{ function: { name: string; description: string } }>
    ).find((t) => t.function.name === "transfer_to_billing");
    expect(offered?.function.description).toBe("Billing questions and refunds.");
    expect(anthropic.served.map((s) => [s.model, s.system, s.tools])).toEqual([
      ["claude-sonnet-4-5", "You are billing.", ["refund"]],
      ["claude-sonnet-4-5", "You are billing.", ["refund"]],
    ]);
    // Billing read the whole conversation, the handoff included (no system message in Anthropic's messages).
    const first = anthropic.served[0]?.messages ?? [];
    expect(first.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(first[1]?.content)).toContain("transfer_to_billing");
    expect([triageScript.repeated, billingScript.repeated]).toEqual([[], []]);
    const paid = spent([...openai.served, ...anthropic.served]);
    expect(result.costUsd).toBeCloseTo(paid.costUsd, 12);
  });
});

describe("a client that stops reading mid-sub-agent (built package)", () => {
  it("aborts the sub-agent's HTTP request and leaves nothing running", async () => {
    const never = new Promise<void>(() => undefined);
    const { openai, anthropic } = await start({
      openai: ({ turn }) => ({
        toolCalls: [{ id: `call_${turn}`, name: "research", arguments: { input: "Population of Paris?" } }],
        usage: { input: 100, output: 10 },
      }),
      anthropic: ({ turn }) => ({
        text: ["Searching", " the archives", " for hours..."],
        toolCalls: [{ id: `toolu_${turn}`, name: "search", arguments: { q: "Paris" } }],
        usage: { input: 100, output: 10 },
        holdAfterFirstDelta: never,
      }),
    });
    const { lead, searches } = team({ openai, anthropic });
    const aborted = anthropic.nextAbort();
    const stream = lead.stream("Research Paris.");
    let seen: Agentloop.AgentEvent | undefined;
    for await (const event of stream) {
      if (event.type === "text_delta" && event.agent === "lead/researcher") {
        seen = event;
        break; // the sub-agent's response is mid-stream: the server holds the rest
      }
    }
    expect(seen?.type === "text_delta" && seen.data.delta).toBe("Searching");
    const closed = await aborted;
    expect(closed).toMatchObject({ system: SYSTEM.researcher, aborted: true, stream: true });
    const result = await stream.result;
    expect(result.stopReason).toBe("aborted");
    expect(result.events.at(-1)?.type).toBe("loop_end");
    const counts = () => [openai.served.length, anthropic.served.length, searches.length];
    const atStop = counts();
    expect(atStop).toEqual([1, 1, 0]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(counts()).toEqual(atStop);
    expect(openai.served.every((s) => !s.aborted)).toBe(true);
  });
});
