import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { toGoogleJsonSchema } from "./to-google-json-schema.js";

const convert = (schema: Record<string, unknown>) =>
  toGoogleJsonSchema({ schema, argument: "tools.t.parameters" });

function failure(schema: Record<string, unknown>): InvalidArgumentError {
  try {
    convert(schema);
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an InvalidArgumentError");
}

describe("toGoogleJsonSchema", () => {
  it("keeps what Gemini takes and moves the rest into the description", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, maxLength: 40, pattern: "^[a-z]+$", description: "Login" },
        age: { type: "integer", minimum: 0, maximum: 150, exclusiveMaximum: 151 },
        when: { type: "string", format: "date-time" },
        mail: { type: "string", format: "email" },
        tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 5, uniqueItems: true },
        pair: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }] },
        mode: { enum: ["fast", "slow"], default: "fast" },
        flag: { enum: [true, false] },
        note: { type: ["string", "null"], description: "A note" },
        level: { type: ["integer", "null"], enum: [1, 2, null] },
        pick: { enum: ["a", null] },
        one: { type: ["boolean"] },
        extra: { type: "object", additionalProperties: { type: "number", multipleOf: 2 } },
      },
      required: ["name"],
      additionalProperties: false,
      propertyOrdering: ["name", "age"],
    };
    expect(convert(schema)).toEqual({
      type: "object",
      properties: {
        name: { type: "string", description: 'Login\n\n{minLength: 1, maxLength: 40, pattern: "^[a-z]+$"}' },
        age: { type: "integer", minimum: 0, maximum: 150, description: "{exclusiveMaximum: 151}" },
        when: { type: "string", format: "date-time" },
        mail: { type: "string", description: '{format: "email"}' },
        tags: {
          type: "array",
          items: { type: "string" },
          minItems: 1,
          maxItems: 5,
          description: "{uniqueItems: true}",
        },
        pair: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }] },
        mode: { enum: ["fast", "slow"], description: '{default: "fast"}' },
        flag: { description: "{enum: [true,false]}" },
        note: { description: "A note", anyOf: [{ type: "string" }, { type: "null" }] },
        level: { anyOf: [{ type: "integer", enum: [1, 2] }, { type: "null" }] },
        pick: { anyOf: [{ enum: ["a"] }, { type: "null" }] },
        one: { type: "boolean" },
        extra: { type: "object", additionalProperties: { type: "number", description: "{multipleOf: 2}" } },
      },
      required: ["name"],
      additionalProperties: false,
      propertyOrdering: ["name", "age"],
    });
    expect(schema.properties.name.minLength).toBe(1); // the given schema is not changed
  });

  it("turns oneOf into anyOf, const into a one-value enum, definitions into $defs", () => {
    expect(
      convert({
        type: "object",
        properties: {
          shape: { oneOf: [{ $ref: "#/definitions/circle" }, { type: "string", const: "none" }] },
        },
        definitions: { circle: { type: "object", properties: { r: { type: "number" } } } },
      }),
    ).toEqual({
      type: "object",
      properties: { shape: { anyOf: [{ $ref: "#/$defs/circle" }, { type: "string", enum: ["none"] }] } },
      $defs: { circle: { type: "object", properties: { r: { type: "number" } } } },
    });
  });

  it("wraps a $ref that has other keywords beside it in a one-branch anyOf", () => {
    const converted = convert({
      type: "object",
      properties: { home: { $ref: "#/$defs/address", description: "Where they live" } },
      $defs: { address: { type: "object", properties: { city: { type: "string" } } } },
    });
    expect((converted.properties as Record<string, unknown>).home).toEqual({
      description: "Where they live",
      anyOf: [{ $ref: "#/$defs/address" }],
    });
  });

  it("accepts recursion through an optional property", () => {
    const tree = {
      $defs: {
        node: {
          type: "object",
          properties: {
            value: { type: "number" },
            children: { type: "array", items: { $ref: "#/$defs/node" } },
          },
          required: ["value", "children"],
        },
      },
      type: "object",
      properties: { root: { $ref: "#/$defs/node" }, next: { $ref: "#" } },
      required: ["root"],
    };
    expect(convert(tree).$defs).toEqual(tree.$defs);
  });

  it("refuses recursion through required properties only, naming the cycle", () => {
    const error = failure({
      type: "object",
      properties: { head: { $ref: "#/$defs/item" } },
      required: ["head"],
      $defs: {
        item: { type: "object", properties: { next: { $ref: "#/$defs/item" } }, required: ["next"] },
      },
    });
    expect(error.argument).toBe("tools.t.parameters");
    expect(error.message).toMatch(
      /recursive through required properties \(#\/\$defs\/item → #\/\$defs\/item\)/,
    );
  });

  it("refuses a $ref that does not point into the schema", () => {
    expect(
      failure({ type: "object", properties: { a: { $ref: "https://example.com/s.json" } } }).message,
    ).toMatch(/does not point into the schema/);
    expect(failure({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } }).message).toMatch(
      /#\/\$defs\/missing/,
    );
  });

  it("converts zod's JSON Schema of nullable, optional, union and record fields", () => {
    const schema = z.toJSONSchema(
      z.object({
        city: z.string().min(1),
        zip: z.string().nullable(),
        unit: z.union([z.literal("c"), z.literal("f")]).optional(),
        scores: z.record(z.string(), z.number()),
      }),
    ) as Record<string, unknown>;
    const converted = convert(schema);
    expect(converted.properties).toEqual({
      city: { type: "string", description: "{minLength: 1}" },
      zip: { anyOf: [{ type: "string" }, { type: "null" }] },
      unit: {
        anyOf: [
          { type: "string", enum: ["c"] },
          { type: "string", enum: ["f"] },
        ],
      },
      scores: {
        type: "object",
        additionalProperties: { type: "number" },
        description: expect.stringMatching(/propertyNames/),
      },
    });
    expect(converted.$schema).toBeUndefined();
  });

  it("returns the same object for the same schema (cached)", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } };
    expect(convert(schema)).toBe(convert(schema));
  });
});
