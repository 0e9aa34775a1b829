import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { tool } from "./tool.js";
import { ToolRegistry } from "./tool-registry.js";

const make = (name: string) =>
  tool({
    name,
    description: `the ${name} tool`,
    parameters: z.object({ x: z.number() }),
    execute: ({ x }) => x * 2,
  });

describe("ToolRegistry", () => {
  it("registers, finds and lists tools in order", () => {
    const a = make("a");
    const b = make("b");
    const registry = new ToolRegistry().register(a).registerMany([b]);
    expect(registry.get("a")).toBe(a);
    expect(registry.get("zzz")).toBeUndefined();
    expect(registry.get("__proto__")).toBeUndefined();
    expect(registry.has("b")).toBe(true);
    expect(registry.has("c")).toBe(false);
    expect(registry.list()).toEqual([a, b]);
    expect(registry.names()).toEqual(["a", "b"]);
    expect(registry.schemas()).toEqual([a.spec, b.spec]);
  });

  it("refuses duplicate names and non-tools", () => {
    const registry = new ToolRegistry({ tools: [make("a")] });
    expect(() => registry.register(make("a"))).toThrow(InvalidArgumentError);
    expect(() => registry.register(make("a"))).toThrow(/already registered/);
    expect(() => registry.register({ name: "fake" } as never)).toThrow(/expected a tool/);
  });

  it("caches schemas() until the registry changes", () => {
    const registry = new ToolRegistry({ tools: [make("a")] });
    const first = registry.schemas();
    expect(registry.schemas()).toBe(first);
    expect(registry.schemas()[0]).toBe(registry.get("a")?.spec);
    expect(Object.isFrozen(first)).toBe(true);
    registry.register(make("b"));
    const second = registry.schemas();
    expect(second).not.toBe(first);
    expect(second.map((s) => s.name)).toEqual(["a", "b"]);
    expect(registry.schemas()).toBe(second);
    // The specs themselves are the tools' own objects, computed once.
    expect(second[0]).toBe(first[0]);
    expect(second[0]?.parameters).toBe(registry.get("a")?.jsonSchema);
  });

  it("executes one call and returns its outcome", async () => {
    const registry = new ToolRegistry({ tools: [make("double")] });
    await expect(registry.execute("double", { x: 21 })).resolves.toMatchObject({
      ok: true,
      content: "42",
      value: 42,
    });
    const bad = await registry.execute("double", { x: "no" }, { toolCallId: "id-1" });
    expect(bad).toMatchObject({ ok: false, toolCallId: "id-1", toolName: "double" });
    expect(bad.content).toBe('Invalid arguments for tool "double": at "x": expected number, received string');
    await expect(registry.execute("nope", {})).resolves.toMatchObject({
      ok: false,
      content: 'Unknown tool "nope". Available tools: "double".',
    });
  });
});
