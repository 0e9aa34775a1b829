import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../models/model.js";
import { toAnthropicJsonSchema } from "./to-anthropic-json-schema.js";

describe("toAnthropicJsonSchema", () => {
  it("adds additionalProperties: false to the recorded request's pydantic schema (the rest as it was)", () => {
    const dog = {
      properties: {
        name: { title: "Name", type: "string" },
        age: { title: "Age", type: "integer" },
        bio: { title: "Bio", type: "string" },
      },
      required: ["name", "age", "bio"],
      title: "Dog",
      type: "object",
    };
    expect(toAnthropicJsonSchema(dog)).toEqual({ ...dog, additionalProperties: false });
  });

  it("closes every object (nested, in items, in unions and $defs) and keeps optional properties optional", () => {
    const out = toAnthropicJsonSchema({
      type: "object",
      properties: {
        owner: { type: "object", properties: { name: { type: "string" } } },
        list: {
          type: "array",
          items: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        },
        either: { oneOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "null" }] },
        ref: { $ref: "#/$defs/leaf", description: "dropped beside a $ref" },
        open: { type: "object", additionalProperties: true },
      },
      required: ["owner"],
      $defs: { leaf: { type: "object", properties: { x: { type: "number" } } } },
    });
    expect(out).toEqual({
      type: "object",
      properties: {
        owner: { type: "object", properties: { name: { type: "string" } }, additionalProperties: false },
        list: {
          type: "array",
          items: {
            type: "object",
            properties: { id: { type: "string" } },
            required: ["id"],
            additionalProperties: false,
          },
        },
        either: {
          anyOf: [
            { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
            { type: "null" },
          ],
        },
        ref: { $ref: "#/$defs/leaf" },
        open: { type: "object", properties: {}, additionalProperties: false },
      },
      required: ["owner"],
      $defs: { leaf: { type: "object", properties: { x: { type: "number" } }, additionalProperties: false } },
      additionalProperties: false,
    });
  });

  it("moves constraints the API does not take into the description, keeping the ones it does", () => {
    const out = toAnthropicJsonSchema({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        age: { type: "integer", description: "years", minimum: 0, maximum: 150 },
        code: { type: "string", pattern: "^[A-Z]{3}$", format: "email" },
        site: { type: "string", format: "uri" },
        tag: { type: "string", format: "color", default: "red" },
        one: { type: "array", items: { type: "string" }, minItems: 1 },
        many: { type: "array", items: { type: "string" }, minItems: 2, uniqueItems: true },
      },
    }) as { properties: Record<string, JsonSchema>; $schema?: unknown };
    expect(out.$schema).toBeUndefined();
    expect(out.properties).toEqual({
      age: { type: "integer", description: "years\n\n{minimum: 0, maximum: 150}" },
      code: { type: "string", format: "email", description: '{pattern: "^[A-Z]{3}$"}' },
      site: { type: "string", format: "uri" },
      tag: { type: "string", description: '{format: "color", default: "red"}' },
      one: { type: "array", items: { type: "string" }, minItems: 1 },
      many: { type: "array", items: { type: "string" }, description: "{minItems: 2, uniqueItems: true}" },
    });
  });

  it("does not change the given schema, and caches the result per schema object", () => {
    const schema = { type: "object", properties: { a: { type: "string", minLength: 1 } } };
    const copy = structuredClone(schema);
    const first = toAnthropicJsonSchema(schema);
    expect(schema).toEqual(copy);
    expect(toAnthropicJsonSchema(schema)).toBe(first);
  });

  it("stops at a nesting depth of 64 (a cyclic object graph does not loop)", () => {
    const cyclic: JsonSchema = { type: "object", properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    expect(() => JSON.stringify(toAnthropicJsonSchema(cyclic))).toThrow(/circular/i);
  });
});
