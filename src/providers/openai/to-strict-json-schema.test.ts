import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../models/model.js";
import { toStrictJsonSchema } from "./to-strict-json-schema.js";

function strict(schema: JsonSchema): JsonSchema {
  const result = toStrictJsonSchema(schema);
  expect(result.reason).toBeUndefined();
  expect(result.strict).toBe(true);
  return result.schema;
}

function notStrict(schema: JsonSchema): string {
  const result = toStrictJsonSchema(schema);
  expect(result.strict).toBe(false);
  expect(result.schema).toBe(schema);
  return result.reason ?? "";
}

describe("toStrictJsonSchema: the strict form", () => {
  it("closes a flat object whose properties are all required", () => {
    const schema = {
      type: "object",
      properties: { city: { type: "string" }, country: { type: "string" } },
      required: ["city", "country"],
    };
    expect(strict(schema)).toEqual({ ...schema, additionalProperties: false });
  });

  it("keeps an already strict schema as it is (the recorded Responses request's schema)", () => {
    const dog = {
      properties: {
        name: { title: "Name", type: "string" },
        age: { title: "Age", type: "integer" },
        bio: { title: "Bio", type: "string" },
      },
      required: ["name", "age", "bio"],
      title: "Dog",
      type: "object",
      additionalProperties: false,
    };
    expect(strict(dog)).toEqual(dog);
  });

  it("requires optional properties and makes them nullable: type arrays for primitives, anyOf otherwise", () => {
    const out = strict({
      type: "object",
      properties: {
        id: { type: "string" },
        note: { type: "string", description: "free text" },
        size: { type: ["integer", "number"] },
        color: { type: "string", enum: ["red", "blue"] },
        tags: { type: "array", items: { type: "string" } },
        kind: { const: "a" },
        already: { type: ["string", "null"] },
      },
      required: ["id"],
    });
    expect(out.required).toEqual(["id", "note", "size", "color", "tags", "kind", "already"]);
    expect(out.properties).toEqual({
      id: { type: "string" },
      note: { type: ["string", "null"], description: "free text" },
      size: { type: ["integer", "number", "null"] },
      color: { type: ["string", "null"], enum: ["red", "blue", null] },
      tags: { anyOf: [{ type: "array", items: { type: "string" } }, { type: "null" }] },
      kind: { anyOf: [{ const: "a" }, { type: "null" }] },
      already: { type: ["string", "null"] },
    });
  });

  it("closes nested objects, in properties, array items and unions, at every depth", () => {
    const out = strict({
      type: "object",
      properties: {
        owner: {
          type: "object",
          properties: {
            name: { type: "string" },
            address: { type: "object", properties: { zip: { type: "string" } } },
          },
          required: ["name", "address"],
        },
        items: {
          type: "array",
          items: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
          minItems: 1,
          maxItems: 3,
        },
        payment: {
          anyOf: [
            { type: "object", properties: { card: { type: "string" } }, required: ["card"] },
            { type: "object", properties: { iban: { type: "string" } }, required: ["iban"] },
          ],
        },
      },
      required: ["owner", "items", "payment"],
    });
    const properties = out.properties as Record<string, JsonSchema>;
    const owner = properties.owner as JsonSchema;
    expect(owner.additionalProperties).toBe(false);
    expect((owner.properties as Record<string, JsonSchema>).address).toEqual({
      type: "object",
      properties: { zip: { type: ["string", "null"] } },
      required: ["zip"],
      additionalProperties: false,
    });
    expect(properties.items).toEqual({
      type: "array",
      items: {
        type: "object",
        properties: { sku: { type: "string" } },
        required: ["sku"],
        additionalProperties: false,
      },
      minItems: 1,
      maxItems: 3,
    });
    expect((properties.payment as JsonSchema).anyOf).toEqual([
      {
        type: "object",
        properties: { card: { type: "string" } },
        required: ["card"],
        additionalProperties: false,
      },
      {
        type: "object",
        properties: { iban: { type: "string" } },
        required: ["iban"],
        additionalProperties: false,
      },
    ]);
  });

  it("turns oneOf into anyOf", () => {
    const out = strict({
      type: "object",
      properties: { v: { oneOf: [{ type: "string" }, { type: "number" }] } },
      required: ["v"],
    });
    expect(out.properties).toEqual({ v: { anyOf: [{ type: "string" }, { type: "number" }] } });
  });

  it("converts $defs and definitions, keeps plain $refs (recursion included), wraps optional $refs", () => {
    const out = strict({
      type: "object",
      properties: {
        root: { $ref: "#/$defs/node" },
        extra: { $ref: "#/definitions/leaf" },
      },
      required: ["root"],
      $defs: {
        node: {
          type: "object",
          properties: {
            value: { type: "integer" },
            children: { type: "array", items: { $ref: "#/$defs/node" } },
          },
          required: ["value", "children"],
        },
      },
      definitions: { leaf: { type: "object", properties: { id: { type: "string" } } } },
    });
    expect(out.properties).toEqual({
      root: { $ref: "#/$defs/node" },
      extra: { anyOf: [{ $ref: "#/definitions/leaf" }, { type: "null" }] },
    });
    expect((out.$defs as Record<string, JsonSchema>).node).toEqual({
      type: "object",
      properties: {
        value: { type: "integer" },
        children: { type: "array", items: { $ref: "#/$defs/node" } },
      },
      required: ["value", "children"],
      additionalProperties: false,
    });
    expect((out.definitions as Record<string, JsonSchema>).leaf).toEqual({
      type: "object",
      properties: { id: { type: ["string", "null"] } },
      required: ["id"],
      additionalProperties: false,
    });
  });

  it("inlines a $ref that has sibling keywords (strict mode takes a $ref alone)", () => {
    const out = strict({
      type: "object",
      properties: { who: { $ref: "#/$defs/person", description: "the buyer" } },
      required: ["who"],
      $defs: { person: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
    });
    expect(out.properties).toEqual({
      who: {
        type: "object",
        properties: { name: { type: "string" } },
        required: ["name"],
        description: "the buyer",
        additionalProperties: false,
      },
    });
  });

  it("leaves out annotations strict mode rejects and formats it does not know; keeps the known ones", () => {
    const out = strict({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        when: { type: "string", format: "date-time", default: "now", examples: ["x"] },
        site: { type: "string", format: "uri", pattern: "^https://" },
        n: { type: "number", minimum: 0, exclusiveMaximum: 10, multipleOf: 0.5 },
      },
      required: ["when", "site", "n"],
    });
    expect(out.$schema).toBeUndefined();
    expect(out.properties).toEqual({
      when: { type: "string", format: "date-time" },
      site: { type: "string", pattern: "^https://" },
      n: { type: "number", minimum: 0, exclusiveMaximum: 10, multipleOf: 0.5 },
    });
  });

  it("closes an object declared empty (additionalProperties: false, no properties)", () => {
    const out = strict({
      type: "object",
      properties: { empty: { type: "object", additionalProperties: false } },
      required: ["empty"],
    });
    expect(out.properties).toEqual({
      empty: { type: "object", properties: {}, required: [], additionalProperties: false },
    });
  });

  it("keeps a property named __proto__ as a property, and refuses an inherited name in required", () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}',
    );
    const out = strict(schema);
    expect(Object.keys(out.properties as object)).toEqual(["__proto__"]);
    expect(JSON.stringify(out)).toContain('"__proto__":{"type":"string"}');
    expect(notStrict({ type: "object", properties: {}, required: ["toString"] })).toContain('"toString"');
  });

  it("does not change the given schema, and caches the result per schema object", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } };
    const copy = structuredClone(schema);
    const first = toStrictJsonSchema(schema);
    expect(schema).toEqual(copy);
    expect(toStrictJsonSchema(schema)).toBe(first);
  });
});

describe("toStrictJsonSchema: schemas left non-strict (sent as given)", () => {
  const object = (properties: Record<string, unknown>, extra: JsonSchema = {}) => ({
    type: "object",
    properties,
    required: Object.keys(properties),
    ...extra,
  });

  it.each([
    ["allOf", object({ a: { allOf: [{ type: "string" }] } }), 'the keyword "allOf" at #/properties/a'],
    ["not", object({ a: { not: { type: "string" } } }), 'the keyword "not"'],
    ["if/else", object({ a: { type: "string", if: {}, else: {} } }), 'the keyword "if"'],
    ["minLength", object({ a: { type: "string", minLength: 1 } }), 'the keyword "minLength"'],
    [
      "uniqueItems",
      object({ a: { type: "array", items: { type: "string" }, uniqueItems: true } }),
      "uniqueItems",
    ],
    [
      "patternProperties",
      object({}, { patternProperties: { "^x": { type: "string" } } }),
      "patternProperties",
    ],
    ["nullable (OpenAPI)", object({ a: { type: "string", nullable: true } }), 'the keyword "nullable"'],
    [
      "a map",
      object({ m: { type: "object", additionalProperties: { type: "string" } } }),
      "additionalProperties",
    ],
    ["an open object", object({ m: { type: "object", additionalProperties: true } }), "additionalProperties"],
    [
      "an object without properties",
      object({ m: { type: "object" } }),
      "without properties (any keys) at #/properties/m",
    ],
    ["any value", object({ a: {} }), "accepts any value at #/properties/a"],
    ["a boolean schema", object({ a: true }), "not an object at #/properties/a"],
    ["tuple items", object({ a: { type: "array", items: [{ type: "string" }] } }), "tuple items"],
    ["a remote $ref", object({ a: { $ref: "https://example.com/s.json" } }), "remote $ref"],
    [
      "an unresolvable $ref with siblings",
      object({ a: { $ref: "#/$defs/x", title: "X" } }),
      "sibling keywords",
    ],
    ["an undeclared required name", { type: "object", properties: {}, required: ["ghost"] }, '"ghost"'],
    ["a non-object top level", { type: "array", items: { type: "string" } }, "top level"],
    ["a union top level", { anyOf: [{ type: "object", properties: {} }] }, "top level"],
  ])("%s", (_name, schema, reason) => {
    expect(notStrict(schema as JsonSchema)).toContain(reason);
  });

  it("refuses nesting deeper than 64 (a cyclic object graph, too)", () => {
    const cyclic: JsonSchema = { type: "object", properties: {}, required: [] };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    expect(notStrict(cyclic)).toContain("nesting deeper than 64");
  });
});
