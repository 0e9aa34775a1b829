import { describe, expect, it } from "vitest";
import { dropStrictNulls, schemaAcceptsNull } from "./drop-strict-nulls.js";
import type { JsonSchema } from "./model.js";

const person: JsonSchema = {
  type: "object",
  properties: {
    name: { type: "string" },
    nick: { type: "string" },
    middle: { type: ["string", "null"] },
    address: {
      type: "object",
      properties: { street: { type: "string" }, zip: { type: "string" } },
      required: ["street"],
    },
    pets: { type: "array", items: { $ref: "#/$defs/pet" } },
  },
  required: ["name"],
  $defs: {
    pet: {
      type: "object",
      properties: { kind: { type: "string" }, age: { type: "integer" } },
      required: ["kind"],
    },
  },
};

describe("dropStrictNulls", () => {
  it("removes null values of optional properties that do not accept null, at every depth", () => {
    const value = {
      name: "Ada",
      nick: null,
      middle: null,
      address: { street: "Main", zip: null },
      pets: [
        { kind: "cat", age: null },
        { kind: "dog", age: 3 },
      ],
    };
    expect(dropStrictNulls({ schema: person, value })).toEqual({
      name: "Ada",
      middle: null,
      address: { street: "Main" },
      pets: [{ kind: "cat" }, { kind: "dog", age: 3 }],
    });
  });

  it("keeps a null the schema allows, a required null (the validator reports it) and undeclared keys", () => {
    const value = { name: null, middle: null, other: null };
    expect(dropStrictNulls({ schema: person, value })).toEqual(value);
  });

  it("does not change the value it is given", () => {
    const value = { name: "Ada", nick: null };
    dropStrictNulls({ schema: person, value });
    expect(value).toEqual({ name: "Ada", nick: null });
  });

  it("walks the anyOf branch that fits the value (discriminated by const)", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: {
        payment: {
          anyOf: [
            {
              type: "object",
              properties: { kind: { const: "card" }, last4: { type: "string" } },
              required: ["kind"],
            },
            {
              type: "object",
              properties: { kind: { const: "iban" }, bic: { type: "string" } },
              required: ["kind"],
            },
          ],
        },
      },
      required: ["payment"],
    };
    expect(dropStrictNulls({ schema, value: { payment: { kind: "iban", bic: null } } })).toEqual({
      payment: { kind: "iban" },
    });
  });

  it("follows a recursive $ref to the root", () => {
    const tree: JsonSchema = {
      type: "object",
      properties: { label: { type: "string" }, child: { $ref: "#" } },
      required: [],
    };
    const value = { label: "a", child: { label: null, child: { label: "c", child: null } } };
    expect(dropStrictNulls({ schema: tree, value })).toEqual({
      label: "a",
      child: { child: { label: "c" } },
    });
  });

  it("reads only declared properties (not inherited names) and keeps a __proto__ key as data", () => {
    const value = JSON.parse('{"name":"Ada","constructor":null,"__proto__":{"nick":null}}');
    const dropped = dropStrictNulls({ schema: person, value }) as Record<string, unknown>;
    expect(Object.keys(dropped)).toEqual(["name", "constructor", "__proto__"]);
    expect(Object.getPrototypeOf(dropped)).toBe(Object.prototype);
  });

  it("returns scalars and values without a schema part as they are", () => {
    expect(dropStrictNulls({ schema: person, value: "text" })).toBe("text");
    expect(dropStrictNulls({ schema: { type: "object" }, value: { a: null } })).toEqual({ a: null });
  });
});

describe("schemaAcceptsNull", () => {
  it.each([
    [{ type: "null" }, true],
    [{ type: ["string", "null"] }, true],
    [{ anyOf: [{ type: "string" }, { type: "null" }] }, true],
    [{ enum: ["a", null] }, true],
    [{ const: null }, true],
    [{ type: ["string", "null"], enum: ["a"] }, false],
    [{ type: "string" }, false],
    [{ $ref: "#/$defs/x" }, false],
    [{ description: "anything" }, true],
    [true, true],
  ])("%j → %s", (schema, expected) => {
    expect(schemaAcceptsNull(schema)).toBe(expected);
  });
});
