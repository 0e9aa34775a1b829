import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import type { Tool, ToolContext } from "./tool.js";
import { tool } from "./tool.js";

describe("tool types", () => {
  it("infers the arguments from the zod schema", () => {
    const weather = tool({
      name: "get_weather",
      description: "",
      parameters: z.object({
        city: z.string(),
        days: z.number().optional(),
        unit: z.enum(["c", "f"]).default("c"),
      }),
      execute: async (args, ctx) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number | undefined; unit: "c" | "f" }>();
        expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
        return { tempC: 18 };
      },
    });
    expectTypeOf(weather).toEqualTypeOf<
      Tool<{ city: string; days?: number | undefined; unit: "c" | "f" }, { tempC: number }>
    >();
    expectTypeOf(weather.execute).parameter(0).toHaveProperty("city").toEqualTypeOf<string>();
  });

  it("types plain JSON Schema arguments as a record", () => {
    const search = tool({
      name: "search",
      description: "",
      parameters: { type: "object", properties: { q: { type: "string" } } },
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      },
    });
    expectTypeOf(search).toEqualTypeOf<Tool<Record<string, unknown>, void>>();
  });

  it("makes typed tools assignable to Tool, so they fit in one list", () => {
    const typed = tool({
      name: "t",
      description: "",
      parameters: z.object({ n: z.number() }),
      needsApproval: ({ n }) => n > 1,
      execute: ({ n }) => n * 2,
    });
    expectTypeOf(typed).toExtend<Tool>();
    const tools: readonly Tool[] = [typed];
    expectTypeOf(tools).toEqualTypeOf<readonly Tool[]>();
  });

  it("rejects an execute that misuses the arguments", () => {
    tool({
      name: "t",
      description: "",
      // @ts-expect-error n is a number, not a string (no overload accepts it)
      parameters: z.object({ n: z.number() }),
      execute: ({ n }: { n: string }) => n,
    });
  });

  it("types a tool without parameters as taking no arguments", () => {
    const now = tool({ name: "now", description: "", execute: (args) => Object.keys(args).length });
    expectTypeOf(now).toEqualTypeOf<Tool<Record<string, never>, number>>();
    expectTypeOf(now).toExtend<Tool>();
  });
});
