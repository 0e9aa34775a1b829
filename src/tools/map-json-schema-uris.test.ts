import { dereference, type Schema } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { mapJsonSchemaUris } from "./map-json-schema-uris.js";

// The walk checks a tool's schema at creation, before the validator package is loaded; on the first validation
// the package indexes the schema itself. Both must see the same subschemas under the same URIs and resolve each
// `$ref` alike, or a schema would be accepted at creation and fail later (or the reverse).
const schemas: Array<[string, unknown]> = [
  ["flat", { type: "object", properties: { a: { type: "string" }, b: true, c: false } }],
  [
    "$defs and $ref",
    {
      type: "object",
      $defs: { node: { type: "object", properties: { child: { $ref: "#/$defs/node" } } } },
      properties: {
        root: { $ref: "#/$defs/node" },
        list: { type: "array", items: { $ref: "#/$defs/node" } },
      },
    },
  ],
  [
    "$id, nested $id, $anchor",
    {
      $id: "https://example.com/root.json",
      type: "object",
      $defs: {
        inner: { $id: "inner.json", $defs: { leaf: { $anchor: "leaf", type: "string" } }, $ref: "#leaf" },
        frag: { $id: "#frag", type: "number" },
      },
      properties: {
        a: { $ref: "inner.json" },
        b: { $ref: "root.json#frag" },
        c: { $ref: "inner.json#leaf" },
      },
    },
  ],
  [
    "names that need escaping",
    {
      type: "object",
      properties: {
        "a/b": { type: "string" },
        "c~d": { type: "string" },
        "e#f g": { $ref: "#/properties/a~1b" },
      },
      patternProperties: { "^x-%41é": { type: "string" } },
    },
  ],
  [
    "draft-04 id, definitions, array keywords and odd keywords",
    {
      $schema: "http://json-schema.org/draft-04/schema#",
      id: "http://example.com/d4",
      definitions: { s: { type: "string" } },
      allOf: [{ $ref: "#/definitions/s" }, { anyOf: [{ type: "string" }, true] }],
      items: [{ type: "string" }, { $ref: "#/definitions/s" }],
      not: { enum: [1] },
      constructor: { $ref: "#/nowhere" },
      unknownKeyword: { $ref: "#/definitions/s" },
      properties: "not an object",
    },
  ],
  ["a boolean", true],
];

/** Every own property (non-enumerable ones too, as the validator's marks are) with its value, recursively. */
function shape(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  return Reflect.ownKeys(value).map((key) => [
    String(key),
    shape((value as Record<string, unknown>)[key as string]),
  ]);
}

describe("mapJsonSchemaUris", () => {
  for (const [name, schema] of schemas) {
    it(`maps the URIs and refs @cfworker/json-schema does: ${name}`, () => {
      const theirs = structuredClone(schema) as Schema;
      const lookup = dereference(theirs);
      const mine = structuredClone(schema);
      const before = shape(mine);
      const uris = mapJsonSchemaUris(mine);
      expect(shape(mine)).toEqual(before);
      if (typeof schema === "object") expect(shape(theirs)).not.toEqual(before); // (the validator marks its copy)
      expect([...uris.lookup.keys()]).toEqual(Object.keys(lookup));
      for (const [uri, node] of uris.lookup) {
        const their = lookup[uri];
        expect(node).toEqual(their);
        const theirRef = typeof their === "object" ? their.__absolute_ref__ : undefined;
        expect(typeof node === "object" && node !== null ? uris.refs.get(node as never) : undefined).toBe(
          theirRef,
        );
      }
    });
  }

  it("throws what the validator throws for a duplicate URI and an invalid $id", () => {
    const duplicate = { $defs: { a: { $id: "#x" }, b: { $anchor: "y", $id: "https://e.com/s" } } };
    for (const schema of [
      { type: "object", $defs: { a: { $id: "https://e.com/a" }, b: { $id: "https://e.com/a" } } },
      { $id: "http://[::1", type: "object" },
      duplicate,
    ]) {
      let message: string | undefined;
      try {
        dereference(structuredClone(schema) as Schema);
      } catch (error) {
        message = (error as Error).message;
      }
      if (message === undefined) expect(() => mapJsonSchemaUris(structuredClone(schema))).not.toThrow();
      else expect(() => mapJsonSchemaUris(structuredClone(schema))).toThrow(message);
    }
    expect(() =>
      mapJsonSchemaUris({ $defs: { a: { $id: "https://e.com/a" }, b: { $id: "https://e.com/a" } } }),
    ).toThrow(/Duplicate schema URI/);
  });
});
