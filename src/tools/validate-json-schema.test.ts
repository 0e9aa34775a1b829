import { describe, expect, it } from "vitest";
import { validateJsonSchema } from "./validate-json-schema.js";

const schema = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 2, maxLength: 5 },
    age: { type: "integer", minimum: 0, maximum: 150 },
    role: { enum: ["admin", "user"] },
    nickname: { type: ["string", "null"] },
    tags: { type: "array", items: { type: "string" }, maxItems: 2 },
    address: {
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    },
  },
  required: ["name"],
};

async function check(value: unknown) {
  return (await validateJsonSchema({ schema, value })).map(
    ({ path, expected, received }) => `${path}|${expected}|${received}`,
  );
}

describe("validateJsonSchema", async () => {
  it("accepts valid values", async () => {
    expect(
      await check({
        name: "Ada",
        age: 36,
        role: "admin",
        nickname: null,
        tags: ["x"],
        address: { city: "L" },
      }),
    ).toEqual([]);
    expect(await check({ name: "Ada", nickname: "A", extra: true })).toEqual([]);
  });

  it("reports type, enum, range, length and nested issues", async () => {
    expect(
      await check({
        name: "A",
        age: 1.5,
        role: "root",
        nickname: 3,
        tags: ["a", 2, "c"],
        address: { town: "x" },
      }),
    ).toEqual([
      "name|string with at least 2 characters|string of 1 characters",
      "age|integer|number",
      'role|one of "admin", "user"|"root"',
      "nickname|string or null|number",
      "tags|array with at most 2 items|array of 3 items",
      "tags[1]|string|number",
      "address.city|string|nothing",
      'address|only the declared properties|unknown property "town"',
    ]);
  });

  it("reports a missing required property and a wrong top-level type", async () => {
    expect(await check({})).toEqual(["name|string|nothing"]);
    expect(await check("text")).toEqual(["|object|string"]);
    expect(await check(undefined)).toEqual(["|object|nothing"]);
  });

  it("checks numbers, maxLength in code points, const, anyOf and additionalProperties schemas", async () => {
    const more = {
      type: "object",
      properties: {
        n: { type: "number", exclusiveMinimum: 0, maximum: 10 },
        emoji: { type: "string", maxLength: 2 },
        kind: { const: "fixed" },
        id: { anyOf: [{ type: "string" }, { type: "integer" }] },
      },
      additionalProperties: { type: "boolean" },
    };
    const issues = async (value: unknown) =>
      (await validateJsonSchema({ schema: more, value })).map(
        ({ path, expected, received }) => `${path}|${expected}|${received}`,
      );
    expect(await issues({ n: 5, emoji: "😀😀", kind: "fixed", id: 3, flag: true })).toEqual([]);
    expect(await issues({ n: 0, emoji: "😀😀😀", kind: "other", id: 1.5, flag: "yes" })).toEqual([
      "n|number > 0|0",
      "emoji|string with at most 2 characters|string of 3 characters",
      'kind|"fixed"|"other"',
      "id|string or integer|number",
      "flag|boolean|string",
    ]);
  });

  it("checks $ref and format (no longer ignored) and does not look at the prototype", async () => {
    const odd = {
      type: "object",
      $defs: { mail: { type: "string", format: "email" } },
      properties: { a: { $ref: "#/$defs/mail" }, b: { format: "no-such-format" } },
      required: ["constructor"],
    };
    const issues = await validateJsonSchema({
      schema: odd,
      value: { a: "not-an-email", b: "x", constructor: 1 },
    });
    expect(issues.map(({ path, expected }) => `${path}|${expected}`)).toEqual([
      'a|an email address (format "email")',
    ]);
    expect((await validateJsonSchema({ schema: odd, value: {} })).map((i) => i.path)).toEqual([
      "constructor",
    ]);
  });
});
