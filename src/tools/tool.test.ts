import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { tool } from "./tool.js";

const noop = () => "ok";

describe("tool: zod parameters → JSON Schema", () => {
  const weather = tool({
    name: "get_weather",
    description: "Weather for a city",
    parameters: z.object({
      city: z.string().describe("City name"),
      unit: z.enum(["c", "f"]).default("c").describe("Temperature unit"),
      days: z.number().int().min(1).max(7).optional(),
      note: z.string().nullable(),
      tags: z.array(z.string()).describe("Labels"),
      location: z.object({ lat: z.number(), lon: z.number().describe("Longitude") }).optional(),
    }),
    execute: noop,
  });

  it("maps descriptions, optional, nullable, enums, defaults, nested objects and arrays", () => {
    expect(weather.jsonSchema).toEqual({
      type: "object",
      properties: {
        city: { type: "string", description: "City name" },
        unit: { type: "string", enum: ["c", "f"], default: "c", description: "Temperature unit" },
        days: { type: "integer", minimum: 1, maximum: 7 },
        note: { type: ["string", "null"] },
        tags: { type: "array", items: { type: "string" }, description: "Labels" },
        location: {
          type: "object",
          properties: { lat: { type: "number" }, lon: { type: "number", description: "Longitude" } },
          required: ["lat", "lon"],
        },
      },
      required: ["city", "note", "tags"],
    });
    expect(weather.jsonSchema).not.toHaveProperty("$schema");
  });

  it("exposes the spec, computed once", () => {
    expect(weather.spec).toEqual({
      name: "get_weather",
      description: "Weather for a city",
      parameters: weather.jsonSchema,
    });
    expect(weather.spec.parameters).toBe(weather.jsonSchema);
    expect(Object.isFrozen(weather)).toBe(true);
  });

  it("parses arguments with zod (defaults applied) and reports issues", async () => {
    await expect(weather.parseArguments({ city: "Paris", note: null, tags: [] })).resolves.toEqual({
      ok: true,
      value: { city: "Paris", unit: "c", note: null, tags: [] },
    });
    const bad = await weather.parseArguments({ city: 3, unit: "k", note: null, tags: ["a", 2], days: 9 });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.issues.map(({ path, expected, received }) => ({ path, expected, received }))).toEqual([
      { path: "city", expected: "string", received: "number" },
      { path: "unit", expected: 'one of "c", "f"', received: '"k"' },
      { path: "days", expected: "number <= 7", received: "9" },
      { path: "tags[1]", expected: "string", received: "number" },
    ]);
    expect(bad.issues[0]?.message).toMatch(/expected string/);
  });

  it("supports async refinements", async () => {
    const checked = tool({
      name: "checked",
      description: "",
      parameters: z.object({ code: z.string().refine(async (code) => code === "ok", "unknown code") }),
      execute: noop,
    });
    await expect(checked.parseArguments({ code: "ok" })).resolves.toEqual({
      ok: true,
      value: { code: "ok" },
    });
    const bad = await checked.parseArguments({ code: "no" });
    expect(bad).toMatchObject({
      ok: false,
      issues: [{ path: "code", expected: "unknown code", received: '"no"' }],
    });
  });

  it("rejects a non-object top level and unrepresentable schemas", () => {
    expect(() => tool({ name: "t", description: "", parameters: z.string(), execute: noop })).toThrow(
      InvalidArgumentError,
    );
    expect(() =>
      tool({ name: "t", description: "", parameters: z.object({ when: z.date() }), execute: noop }),
    ).toThrow(/cannot be converted to JSON Schema/);
  });
});

describe("tool: plain JSON Schema parameters", () => {
  const search = tool({
    name: "search",
    description: "Search",
    parameters: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        query: { type: "string", minLength: 1 },
        limit: { type: ["integer", "null"], maximum: 50 },
      },
      required: ["query"],
      additionalProperties: false,
    },
    execute: (args) => args.query,
  });

  it("drops $schema and keeps the rest", () => {
    expect(search.jsonSchema).toEqual({
      type: "object",
      properties: {
        query: { type: "string", minLength: 1 },
        limit: { type: ["integer", "null"], maximum: 50 },
      },
      required: ["query"],
      additionalProperties: false,
    });
  });

  it("validates arguments with the built-in validator", async () => {
    await expect(search.parseArguments({ query: "x", limit: null })).resolves.toEqual({
      ok: true,
      value: { query: "x", limit: null },
    });
    const bad = await search.parseArguments({ limit: 51, extra: 1 });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.issues.map(({ path, expected, received }) => ({ path, expected, received }))).toEqual([
      { path: "query", expected: "string", received: "nothing" },
      { path: "limit", expected: "number <= 50", received: "51" },
      { path: "", expected: "only the declared properties", received: 'unknown property "extra"' },
    ]);
  });

  it("copies the schema, so later changes to the caller's object do not leak in", () => {
    const parameters = { type: "object", properties: { a: { type: "string" } } };
    const t = tool({ name: "copy", description: "", parameters, execute: noop });
    parameters.properties.a.type = "number";
    expect(t.jsonSchema).toEqual({ type: "object", properties: { a: { type: "string" } } });
  });

  it("requires a top-level object schema", () => {
    expect(() => tool({ name: "t", description: "", parameters: { type: "string" }, execute: noop })).toThrow(
      /must be of type "object"/,
    );
  });
});

describe("tool: option validation", () => {
  const parameters = z.object({});

  it.each(["", "has space", "dots.not.allowed", "x".repeat(65), "ünicode"])("rejects the name %j", (name) => {
    expect(() => tool({ name, description: "", parameters, execute: noop })).toThrow(InvalidArgumentError);
  });

  it("accepts the providers' name alphabet", () => {
    expect(tool({ name: "a-B_9", description: "", parameters, execute: noop }).name).toBe("a-B_9");
    expect(tool({ name: "x".repeat(64), description: "", parameters, execute: noop }).name).toHaveLength(64);
  });

  it("rejects a non-string description and bad options", () => {
    const base = { name: "t", parameters, execute: noop };
    expect(() => tool({ ...base, description: 3 as unknown as string })).toThrow(/description/);
    expect(() => tool({ ...base, description: "", timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => tool({ ...base, description: "", maxResultChars: 1.5 })).toThrow(/maxResultChars/);
    expect(() => tool({ ...base, description: "", sequential: "yes" as unknown as boolean })).toThrow(
      /sequential/,
    );
  });

  it("stores needsApproval, sequential and idempotent", async () => {
    const plain = tool({ name: "t", description: "", parameters, execute: noop });
    expect([plain.needsApproval, plain.sequential, plain.idempotent]).toEqual([false, false, false]);
    await expect(plain.requiresApproval({})).resolves.toBe(false);
    const transfer = tool({
      name: "transfer",
      description: "",
      parameters: z.object({ amount: z.number() }),
      needsApproval: async ({ amount }) => amount > 100,
      sequential: true,
      idempotent: true,
      execute: noop,
    });
    await expect(transfer.requiresApproval({ amount: 500 })).resolves.toBe(true);
    await expect(transfer.requiresApproval({ amount: 5 })).resolves.toBe(false);
    expect([transfer.sequential, transfer.idempotent]).toEqual([true, true]);
  });
});
