import { Validator } from "@cfworker/json-schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dropStrictNulls, schemaAcceptsNull } from "../../models/drop-strict-nulls.js";
import type { JsonSchema } from "../../models/model.js";
import { toStrictJsonSchema } from "./to-strict-json-schema.js";

// Random schemas of the strict-convertible kind (nested objects with optional properties, arrays, enums,
// discriminated anyOf, $refs into $defs), each with a random valid answer. An answer the strict model would
// write (every optional property present, `null` when absent) must be valid against the strict schema, and
// `dropStrictNulls` must turn it back into the answer the original schema describes.

/**
 * A generated schema with a generator of triples: a valid answer, the same answer as strict mode writes it,
 * and what `dropStrictNulls` makes of that (the answer, except that an absent optional property whose schema
 * accepts `null` comes back as `null`: strict mode cannot tell the two apart, and both are valid).
 */
interface Case {
  schema: JsonSchema;
  answers: fc.Arbitrary<Answers>;
}
type Answers = [plain: unknown, strict: unknown, restored: unknown];

const same = (value: unknown): Answers => [value, value, value];

const LEAF_DEF: JsonSchema = {
  type: "object",
  properties: { id: { type: "string" }, rank: { type: "integer" } },
  required: ["id"],
};

const leaf: fc.Arbitrary<Case> = fc.constantFrom<Case>(
  { schema: { type: "string" }, answers: fc.string({ maxLength: 5 }).map(same) },
  { schema: { type: "integer", minimum: 0 }, answers: fc.nat(1000).map(same) },
  { schema: { type: "boolean" }, answers: fc.boolean().map(same) },
  { schema: { type: "string", enum: ["a", "b"] }, answers: fc.constantFrom("a", "b").map(same) },
  {
    schema: { type: ["string", "null"] },
    answers: fc.option(fc.string({ maxLength: 3 }), { nil: null }).map(same),
  },
  {
    schema: { $ref: "#/$defs/leaf" },
    answers: fc
      .record({ id: fc.string({ maxLength: 3 }), rank: fc.option(fc.nat(9), { nil: undefined }) })
      .map(({ id, rank }): Answers => {
        const plain = rank === undefined ? { id } : { id, rank };
        return [plain, { id, rank: rank ?? null }, plain];
      }),
  },
);

function objectCase(members: Array<{ key: string; required: boolean; item: Case }>): Case {
  const properties = Object.fromEntries(members.map(({ key, item }) => [key, item.schema]));
  const required = members.filter((m) => m.required).map((m) => m.key);
  const answers = fc
    .tuple(
      ...members.map(({ required: isRequired, item }) =>
        fc.tuple(item.answers, isRequired ? fc.constant(true) : fc.boolean()),
      ),
    )
    .map((values): Answers => {
      const plain: Record<string, unknown> = {};
      const strict: Record<string, unknown> = {};
      const restored: Record<string, unknown> = {};
      values.forEach(([[value, strictValue, restoredValue], present], i) => {
        const member = members[i];
        if (member === undefined) return;
        if (present) plain[member.key] = value;
        strict[member.key] = present ? strictValue : null;
        if (present) restored[member.key] = restoredValue;
        else if (schemaAcceptsNull(member.item.schema)) restored[member.key] = null;
      });
      return [plain, strict, restored];
    });
  return { schema: { type: "object", properties, required }, answers };
}

const { node } = fc.letrec<{ node: Case }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc
      .uniqueArray(
        fc.record({ key: fc.constantFrom("a", "b", "c", "d"), required: fc.boolean(), item: tie("node") }),
        {
          selector: (m) => m.key,
          maxLength: 4,
        },
      )
      .map(objectCase),
    tie("node").map((item) => ({
      schema: { type: "array", items: item.schema },
      answers: fc
        .array(item.answers, { maxLength: 3 })
        .map((list): Answers => [list.map((a) => a[0]), list.map((a) => a[1]), list.map((a) => a[2])]),
    })),
    fc.tuple(tie("node"), tie("node")).map(([x, y]) => {
      const branch = (kind: string, item: Case) =>
        objectCase([
          {
            key: "kind",
            required: true,
            item: { schema: { const: kind }, answers: fc.constant(same(kind)) },
          },
          { key: "v", required: false, item },
        ]);
      const [bx, by] = [branch("x", x), branch("y", y)];
      return { schema: { oneOf: [bx.schema, by.schema] }, answers: fc.oneof(bx.answers, by.answers) };
    }),
  ),
}));

const rootCase: fc.Arbitrary<Case> = fc
  .uniqueArray(fc.record({ key: fc.constantFrom("p", "q", "r"), required: fc.boolean(), item: node }), {
    selector: (m) => m.key,
    minLength: 1,
    maxLength: 3,
  })
  .map(objectCase)
  .map((root) => ({ ...root, schema: { ...root.schema, $defs: { leaf: LEAF_DEF } } }));

/** Every object node of a strict schema is closed and requires all its properties. */
function expectClosed(schema: unknown): void {
  if (Array.isArray(schema)) {
    schema.forEach(expectClosed);
    return;
  }
  if (schema === null || typeof schema !== "object") return;
  const node = schema as JsonSchema;
  if (node.type === "object") {
    expect(node.additionalProperties).toBe(false);
    expect(node.required).toEqual(Object.keys(node.properties as object));
  }
  Object.values(node).forEach(expectClosed);
}

describe("toStrictJsonSchema properties (random convertible schemas)", () => {
  it("converts them, closing every object; strict answers validate and dropStrictNulls restores the original answer", () => {
    fc.assert(
      fc.property(
        rootCase.chain((c) => c.answers.map((answer) => ({ schema: c.schema, answer }))),
        ({ schema, answer: [plain, strictAnswer, restored] }) => {
          const result = toStrictJsonSchema(schema);
          expect(result.reason).toBeUndefined();
          expectClosed(result.schema);
          expect(new Validator(schema, "2020-12", false).validate(plain).valid).toBe(true);
          const strictCheck = new Validator(result.schema, "2020-12", false).validate(strictAnswer);
          expect(strictCheck.errors).toEqual([]);
          const dropped = dropStrictNulls({ schema, value: strictAnswer });
          expect(dropped).toEqual(restored);
          expect(new Validator(schema, "2020-12", false).validate(dropped).valid).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
