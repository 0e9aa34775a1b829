import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { JsonSchema } from "../models/model.js";
import { describeSchemaErrors } from "./describe-schema-errors.js";
import { createJsonSchemaValidator } from "./json-schema-validator.js";
import { tool } from "./tool.js";
import { ToolRegistry } from "./tool-registry.js";

/** The issues a tool with `schema` as its parameters reports for `value` (validator built at creation). */
async function issuesOf(schema: JsonSchema, value: unknown): Promise<string[]> {
  const created = tool({ name: "t", description: "", parameters: schema, execute: () => "" });
  const parsed = await created.parseArguments(value as Record<string, unknown>);
  return parsed.ok
    ? []
    : parsed.issues.map(({ path, expected, received }) => `${path}|${expected}|${received}`);
}

const address = {
  type: "object",
  properties: { city: { type: "string" }, zip: { type: "string", pattern: "^[0-9]{5}$" } },
  required: ["city"],
  additionalProperties: false,
};

describe("createJsonSchemaValidator: keywords the old validator ignored", () => {
  it("follows $ref into $defs (also in arrays and nested refs)", async () => {
    const schema = {
      type: "object",
      $defs: { address, home: { $ref: "#/$defs/address" } },
      properties: {
        home: { $ref: "#/$defs/home" },
        others: { type: "array", items: { $ref: "#/$defs/address" } },
      },
      required: ["home"],
    };
    expect(
      await issuesOf(schema, { home: { city: "Paris", zip: "75001" }, others: [{ city: "Lyon" }] }),
    ).toEqual([]);
    expect(
      await issuesOf(schema, { home: { city: 1, zip: "7", extra: true }, others: [{ city: "a" }, {}] }),
    ).toEqual([
      "home.city|string|number",
      'home.zip|string matching ^[0-9]{5}$|"7"',
      'home|only the declared properties|unknown property "extra"',
      "others[1].city|string|nothing",
    ]);
  });

  it("follows draft-07 definitions (the draft named by $schema)", async () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      definitions: { count: { type: "integer", minimum: 0 } },
      properties: { n: { $ref: "#/definitions/count" } },
    };
    expect(await issuesOf(schema, { n: 2 })).toEqual([]);
    expect(await issuesOf(schema, { n: -1 })).toEqual(["n|number >= 0|-1"]);
    expect(await issuesOf(schema, { n: "2" })).toEqual(["n|integer|string"]);
  });

  it("checks every branch of allOf", async () => {
    const schema = {
      type: "object",
      properties: { named: { allOf: [{ $ref: "#/$defs/address" }, { required: ["zip"] }] } },
      $defs: { address },
    };
    expect(await issuesOf(schema, { named: { city: "x", zip: "12345" } })).toEqual([]);
    expect(await issuesOf(schema, { named: { city: "x" } })).toEqual(["named.zip|a value|nothing"]);
    expect(await issuesOf(schema, { named: { zip: "12345" } })).toEqual(["named.city|string|nothing"]);
  });

  it("reports anyOf/oneOf by the branch the value is meant for, or lists the branches", async () => {
    const schema = {
      type: "object",
      properties: {
        id: {
          oneOf: [
            { type: "string", format: "uuid" },
            { type: "integer", minimum: 1 },
          ],
        },
        pet: {
          anyOf: [
            { type: "string" },
            { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
          ],
        },
        shape: {
          anyOf: [
            {
              type: "object",
              properties: { kind: { const: "circle" }, r: { type: "number" } },
              required: ["kind", "r"],
            },
            {
              type: "object",
              properties: { kind: { const: "square" }, side: { type: "number" } },
              required: ["kind", "side"],
            },
          ],
        },
        both: { oneOf: [{ type: "integer" }, { type: "number" }] },
      },
    };
    expect(
      await issuesOf(schema, { id: 3, pet: "rex", shape: { kind: "square", side: 2 }, both: 1.5 }),
    ).toEqual([]);
    expect(await issuesOf(schema, { id: 1.5, pet: 3 })).toEqual([
      "id|string or integer|number",
      "pet|string or object|number",
    ]);
    expect(await issuesOf(schema, { id: 0, pet: { nom: "x" }, shape: { kind: "circle" } })).toEqual([
      "id|number >= 1|0",
      "pet.name|string|nothing",
      "shape.r|number|nothing",
    ]);
    expect(await issuesOf(schema, { id: "not-a-uuid", shape: { kind: "triangle" }, both: 2 })).toEqual([
      'id|a UUID (format "uuid")|"not-a-uuid"',
      'shape.kind|one of "circle", "square"|"triangle"',
      "both|a value matching exactly one alternative|a value matching 2 of them",
    ]);
  });

  it("asserts the common formats: email, date-time, date, uri", async () => {
    const schema = {
      type: "object",
      properties: {
        email: { type: "string", format: "email" },
        when: { type: "string", format: "date-time" },
        day: { type: "string", format: "date" },
        site: { type: "string", format: "uri" },
      },
    };
    const good = {
      email: "ada@example.com",
      when: "2024-02-29T09:30:00+01:00",
      day: "2024-02-29",
      site: "https://x.org/a?b=1",
    };
    expect(await issuesOf(schema, good)).toEqual([]);
    expect(
      await issuesOf(schema, { email: "ada", when: "yesterday", day: "2023-02-29", site: "x.org/a" }),
    ).toEqual([
      'email|an email address (format "email")|"ada"',
      'when|a date-time such as 2024-01-31T09:30:00Z (format "date-time")|"yesterday"',
      'day|a date such as 2024-01-31 (format "date")|"2023-02-29"',
      'site|an absolute URI such as https://example.com/page (format "uri")|"x.org/a"',
    ]);
  });

  it("reports not, const, multipleOf, uniqueItems, property counts, dependentRequired and false schemas", async () => {
    const schema = {
      type: "object",
      properties: {
        word: { type: "string", not: { const: "forbidden" } },
        step: { type: "number", multipleOf: 0.5 },
        tags: { type: "array", uniqueItems: true },
        meta: { type: "object", maxProperties: 1 },
        never: false,
      },
      dependentRequired: { card: ["cvv"] },
      unevaluatedProperties: false,
    };
    expect(await issuesOf(schema, { word: "ok", step: 1.5, tags: [1, 2], meta: {} })).toEqual([]);
    const bad = { word: "forbidden", step: 0.3, tags: [1, 1], meta: { a: 1, b: 2 }, never: 1, card: "4242" };
    expect(await issuesOf(schema, bad)).toEqual([
      "cvv|a value|nothing",
      'word|a value that does not match the "not" schema|"forbidden"',
      "step|a multiple of 0.5|0.3",
      "tags|array of unique items|array with duplicates (duplicate items at indexes 0 and 1)",
      "meta|object with at most 1 properties|object with 2 properties",
      "never|nothing (no value is allowed here)|number",
      '|only the declared properties|unknown property "card"',
    ]);
    expect((await createJsonSchemaValidator({ schema })(bad))[0]?.message).toBe(
      'Missing required property "cvv" (required when "card" is given)',
    );
  });
});

describe("createJsonSchemaValidator: safety", () => {
  it("refuses, at creation, a schema it cannot check", async () => {
    const refusals: Array<[JsonSchema, RegExp]> = [
      [
        { type: "object", properties: { a: { $ref: "#/$defs/missing" } } },
        /\$ref "#\/\$defs\/missing" does not resolve/,
      ],
      [
        { type: "object", properties: { a: { $ref: "https://example.com/s.json" } } },
        /remote schemas are not fetched/,
      ],
      [
        { type: "object", properties: { a: { type: "string", pattern: "(" } } },
        /pattern "\(" is not a valid/,
      ],
      [{ type: "object", patternProperties: { "[": {} } }, /patternProperties key "\[" is not a valid/],
      [{ type: "object", properties: { a: { $dynamicRef: "#node" } } }, /\$dynamicRef is not supported/],
    ];
    for (const [schema, message] of refusals) {
      expect(() => createJsonSchemaValidator({ schema })).toThrow(message);
      expect(() => tool({ name: "t", description: "", parameters: schema, execute: () => "" })).toThrow(
        InvalidArgumentError,
      );
    }
  });

  it("does not modify the schema it is given", async () => {
    const schema = {
      type: "object",
      $defs: { address },
      properties: { a: { $ref: "#/$defs/address" }, b: { format: "custom" } },
    };
    const before = structuredClone(schema);
    await createJsonSchemaValidator({ schema })({ a: {} });
    expect(schema).toEqual(before);
    expect(Object.getOwnPropertyNames(schema.properties.a)).toEqual(["$ref"]);
  });

  it("turns arguments nested too deeply for a recursive schema into an issue, not a crash", async () => {
    const schema = {
      type: "object",
      $defs: { node: { type: "object", properties: { child: { $ref: "#/$defs/node" } } } },
      properties: { root: { $ref: "#/$defs/node" } },
    };
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 50_000; i++) deep = { child: deep };
    expect(await issuesOf(schema, { root: deep })).toEqual([
      "|arguments nested less deeply|arguments nested too deeply to check",
    ]);
    expect(await issuesOf(schema, { root: { child: { child: 1 } } })).toEqual([
      "root.child.child|object|number",
    ]);
  });

  it("reads property names such as $ref, a/b and constructor as names, not keywords", async () => {
    const schema = {
      type: "object",
      properties: { $ref: { type: "string" }, "a/b": { type: "integer" }, constructor: { type: "boolean" } },
    };
    expect(await issuesOf(schema, JSON.parse('{"$ref": 1, "a/b": "x", "constructor": 0}'))).toEqual([
      "$ref|string|number",
      '["a/b"]|integer|string',
      "constructor|boolean|number",
    ]);
  });

  it("never reports an invalid value without an issue (the validator's words as a last resort)", () => {
    const errors = [
      { keyword: "$ref", keywordLocation: "#/$ref", instanceLocation: "#", error: "A subschema had errors." },
    ];
    expect(describeSchemaErrors({ errors, root: { type: "object" }, lookup: {}, value: { a: 1 } })).toEqual([
      {
        path: "",
        expected: "a value valid against the schema",
        received: "object",
        message: "A subschema had errors.",
      },
    ]);
  });

  it("uses a validator without code generation (no eval, no new Function)", async () => {
    const dist = fileURLToPath(
      new URL("../../node_modules/@cfworker/json-schema/dist/esm/", import.meta.url),
    );
    const files = readdirSync(dist).filter((name) => name.endsWith(".js"));
    expect(files.length).toBeGreaterThan(3);
    for (const name of files) {
      expect(readFileSync(`${dist}${name}`, "utf8")).not.toMatch(
        /\beval\s*\(|new\s+Function\b|\bFunction\s*\(/,
      );
    }
  });
});

describe("tool({ parameters: jsonSchema }) validates the whole schema, with one validator per tool", () => {
  const booking = tool({
    name: "book",
    description: "Books a visit",
    parameters: {
      type: "object",
      $defs: { address },
      properties: {
        email: { type: "string", format: "email" },
        at: { type: "string", format: "date-time" },
        where: { $ref: "#/$defs/address" },
      },
      required: ["email", "at", "where"],
    },
    execute: (args) => `booked ${JSON.stringify(args)}`,
  });

  it("sends the schema as given (with $defs) and refuses a $ref-invalid call before it runs", async () => {
    expect(booking.jsonSchema.$defs).toEqual({ address });
    const registry = new ToolRegistry({ tools: [booking] });
    const bad = await registry.execute("book", {
      email: "nobody",
      at: "2024-01-31T09:30:00Z",
      where: { city: 75001 },
    });
    expect(bad.ok).toBe(false);
    expect(bad.error?.type).toBe("ToolArgumentsError");
    expect(bad.content).toContain(
      'at "email": expected an email address (format "email"), received "nobody"',
    );
    expect(bad.content).toContain('at "where.city": expected string, received number');
    const good = await registry.execute("book", {
      email: "a@b.co",
      at: "2024-01-31T09:30:00Z",
      where: { city: "Paris" },
    });
    expect(good).toMatchObject({ ok: true });
  });
});
