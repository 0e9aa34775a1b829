import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import type { AgentEventOf } from "../loop/agent-event.js";
import type { Model, ModelRequest, ModelResponse } from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { createOpenAI } from "../providers/openai/create-openai.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { Budget } from "./budget.js";
import { DEFAULT_RESERVED_OUTPUT_TOKENS } from "./call-reservation.js";

const usage = { inputTokens: 1000, outputTokens: 500 };
const answer = (modelId: string) => new ScriptedModel([{ text: "hi", usage }], { modelId });
const warnings = (events: readonly { type: string }[]) =>
  events.filter(
    (e): e is AgentEventOf<"error"> =>
      e.type === "error" && (e as AgentEventOf<"error">).data.name === "UnpricedModel",
  );

/** A model that answers as another model (the response's `model` field), like a dated snapshot or a proxy. */
function answeringAs(requested: string, responded: string): Model {
  const response = (): ModelResponse => ({
    text: "hi",
    toolCalls: [],
    usage: { inputTokens: 1_000_000, outputTokens: 0, totalTokens: 1_000_000 },
    finishReason: { unified: "stop", raw: "stop" },
    model: responded,
  });
  return {
    provider: "test",
    modelId: requested,
    generate: async (_request: ModelRequest) => response(),
    async *stream(): AsyncGenerator<ModelStreamPart> {
      const { text, usage, finishReason, model } = response();
      yield { type: "text_delta", delta: text };
      yield { type: "finish", usage, finishReason, ...(model !== undefined && { model }) };
    },
  } as Model;
}

describe("cost cap: models without a price", () => {
  it("refuses a cap at construction when the model has no price, naming the fix", () => {
    expect(() => new Agent({ model: answer("my-local-llama"), limits: { maxCostUsd: 1 } })).toThrow(
      /limits\.maxCostUsd.*"my-local-llama" has none.*pricing: \{ "my-local-llama": \{ inputPerMTok, outputPerMTok \} \} or pricingFallback/,
    );
    expect(() => new Agent({ model: answer("my-local-llama"), budget: new Budget({ limitUsd: 1 }) })).toThrow(
      /budget.*pricingFallback/,
    );
    // Either fix works; a priced model needs none.
    const price = { inputPerMTok: 1, outputPerMTok: 2 };
    expect(
      () =>
        new Agent({
          model: answer("my-local-llama"),
          limits: { maxCostUsd: 1 },
          pricing: { "my-local-llama": price },
        }),
    ).not.toThrow();
    expect(
      () => new Agent({ model: answer("my-local-llama"), limits: { maxCostUsd: 1 }, pricingFallback: price }),
    ).not.toThrow();
    expect(() => new Agent({ model: answer("gpt-4o-mini"), limits: { maxCostUsd: 1 } })).not.toThrow();
    // Without a cap an unpriced model is fine (it is flagged instead).
    expect(() => new Agent({ model: answer("my-local-llama") })).not.toThrow();
  });

  it("refuses a run's own budget for an unpriced model", async () => {
    const agent = new Agent({ model: answer("my-local-llama") });
    await expect(agent.run("go", { budget: new Budget({ limitUsd: 1 }) })).rejects.toThrow(/pricingFallback/);
  });

  it("warns with one non-fatal event per run at the first call of an unpriced model", async () => {
    const model = new ScriptedModel(
      [
        { toolCalls: [{ name: "nothing", arguments: {} }], usage },
        { text: "done", usage },
      ],
      { modelId: "my-local-llama" },
    );
    const agent = new Agent({ model, loopDetection: false });
    const first = await agent.run("go");
    expect(first.stopReason).toBe("completed");
    expect(first.events.filter((e) => e.type === "model_call")).toHaveLength(2);
    expect(warnings(first.events).map((e) => e.data)).toEqual([
      {
        name: "UnpricedModel",
        message: expect.stringMatching(/"my-local-llama" has no price.*pricing:/),
        fatal: false,
      },
    ]);
    expect(first.costUnknownModels).toEqual(["my-local-llama"]);
    // A priced model: no warning.
    const priced = await new Agent({ model: answer("gpt-4o-mini") }).run("go");
    expect(warnings(priced.events)).toEqual([]);
  });
});

describe("cost cap: a realistic reservation", () => {
  it("admits a first call that costs a fraction of the cap (no 4,096-token worst case)", async () => {
    // gpt-4o: $10 per million output tokens. 4,096 output tokens would be $0.041 > the cap; 1,024 is $0.0102.
    const model = new ScriptedModel(
      [{ text: "short answer", usage: { inputTokens: 20, outputTokens: 10 } }],
      {
        modelId: "gpt-4o",
      },
    );
    const result = await new Agent({ model, limits: { maxCostUsd: 0.02 } }).run("Say hi.");
    expect(DEFAULT_RESERVED_OUTPUT_TOKENS).toBe(1024);
    expect(result.stopReason).toBe("completed");
    expect(model.calls).toHaveLength(1);
  });

  it("still refuses a call whose reservation cannot fit", async () => {
    const model = new ScriptedModel([{ text: "x", usage }], { modelId: "gpt-4o" });
    const result = await new Agent({ model, limits: { maxCostUsd: 0.005 } }).run("Say hi.");
    expect(result.stopReason).toBe("cost_limit");
    expect(model.calls).toHaveLength(0);
  });
});

describe("cost: priced by the model the response names", () => {
  it("prices a call as the responded model when it has a price, else as the requested one", async () => {
    // Asked gpt-4o-mini ($0.15/M input), served gpt-4o-2024-08-06 ($2.50/M input).
    const served = await new Agent({ model: answeringAs("gpt-4o-mini", "gpt-4o-2024-08-06") }).run("go");
    expect(served.costUsd).toBeCloseTo(2.5, 10);
    const same = await new Agent({ model: answeringAs("gpt-4o-mini", "gpt-4o-mini-2024-07-18") }).run("go");
    expect(same.costUsd).toBeCloseTo(0.15, 10);
    const unknown = await new Agent({ model: answeringAs("gpt-4o-mini", "some-proxy-name") }).run("go");
    expect(unknown.costUsd).toBeCloseTo(0.15, 10);
  });

  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
    server = undefined;
  });

  it("reads the response's model from an OpenAI-compatible server, JSON and streamed", async () => {
    server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on("end", () => {
        const stream = (JSON.parse(body) as { stream?: boolean }).stream === true;
        const usageWire = { prompt_tokens: 1_000_000, completion_tokens: 0, total_tokens: 1_000_000 };
        if (!stream) {
          response.writeHead(200, { "content-type": "application/json" });
          response.end(
            JSON.stringify({
              model: "gpt-4o-2024-08-06",
              choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }],
              usage: usageWire,
            }),
          );
          return;
        }
        response.writeHead(200, { "content-type": "text/event-stream" });
        const chunk = (data: unknown) => response.write(`data: ${JSON.stringify(data)}\n\n`);
        chunk({ model: "gpt-4o-2024-08-06", choices: [{ index: 0, delta: { content: "hi" } }] });
        chunk({ model: "gpt-4o-2024-08-06", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
        chunk({ model: "gpt-4o-2024-08-06", choices: [], usage: usageWire });
        response.end("data: [DONE]\n\n");
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const agent = new Agent({ model: createOpenAI({ baseURL: url, apiKey: "k" })("gpt-4o-mini") });
    expect((await agent.run("go")).costUsd).toBeCloseTo(2.5, 10);
    const stream = agent.stream("go");
    for await (const _event of stream) {
      // drain
    }
    expect((await stream.result).costUsd).toBeCloseTo(2.5, 10);
  });
});
