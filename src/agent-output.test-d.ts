import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { Agent } from "./agent.js";
import type { AgentStream } from "./agent-stream.js";
import type { AgentResult } from "./loop/agent-result.js";

const model = "openai:gpt-4o-mini";

describe("typed output types", () => {
  it("types result.output from a zod schema (after parsing: defaults applied)", async () => {
    const agent = new Agent({
      model,
      output: z.object({ city: z.string(), temperature: z.number(), units: z.enum(["c", "f"]).default("c") }),
    });
    expectTypeOf(agent).toEqualTypeOf<Agent<{ city: string; temperature: number; units: "c" | "f" }>>();
    const result = await agent.run("Weather in Paris?");
    expectTypeOf(result.output).toEqualTypeOf<
      { city: string; temperature: number; units: "c" | "f" } | undefined
    >();
    const stream = agent.stream("Weather?");
    expectTypeOf(stream).toEqualTypeOf<
      AgentStream<{ city: string; temperature: number; units: "c" | "f" }>
    >();
    expectTypeOf(await agent.resume("run-1")).toEqualTypeOf<
      AgentResult<{ city: string; temperature: number; units: "c" | "f" }>
    >();
  });

  it("types output as unknown for a JSON Schema or without a schema", async () => {
    const json = new Agent({ model, output: { type: "object", properties: { a: { type: "string" } } } });
    expectTypeOf((await json.run("x")).output).toEqualTypeOf<unknown>();
    const plain = new Agent({ model });
    expectTypeOf((await plain.run("x")).output).toEqualTypeOf<unknown>();
  });

  it("keeps the type through with() unless the schema changes", () => {
    const agent = new Agent({ model, output: z.object({ n: z.number() }) });
    expectTypeOf(agent.with({ temperature: 0 })).toEqualTypeOf<Agent<{ n: number }>>();
    expectTypeOf(agent.with({ output: z.object({ s: z.string() }) })).toEqualTypeOf<Agent<{ s: string }>>();
  });
});
