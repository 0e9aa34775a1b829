import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { JsonSchema, OutputFormat } from "../models/model.js";
import { resolveToolParameters } from "../tools/resolve-tool-parameters.js";
import type { InferSchemaOutput, StandardSchemaV1 } from "../tools/standard-schema.js";
import { jsonTextTooDeep, tooDeepMessage } from "../util/json-depth.js";

/**
 * The schema of a typed final answer: a zod 4 schema (any Standard Schema with JSON Schema support) or a plain
 * JSON Schema object. Its top level must be an object (`type: "object"`), as providers require.
 */
export type OutputSchema = StandardSchemaV1 | JsonSchema;

/** The type `result.output` has for an output schema: inferred from a Standard Schema, `unknown` for JSON Schema. */
export type InferOutput<Schema> = Schema extends StandardSchemaV1 ? InferSchemaOutput<Schema> : unknown;

/** The name of the schema sent to providers, and of the final-answer tool of models without native support. */
export const OUTPUT_NAME = "final_answer";

/** The outcome of checking an answer against the output schema. */
export type OutputCheck = { ok: true; value: unknown } | { ok: false; errors: string[] };

/** An output schema made ready once, at agent construction. */
export interface ResolvedOutput {
  /** What is sent to a model with native structured output (and the final-answer tool's parameters). */
  format: OutputFormat;
  /** Validates (and, for zod, parses: defaults, transforms) a decoded answer. */
  check(value: unknown): Promise<OutputCheck>;
}

/**
 * Derives the JSON Schema and the validator of an output schema (as tool parameters are derived: zod through
 * its JSON Schema conversion, plain schemas validated by @cfworker/json-schema). Throws
 * {@link InvalidArgumentError} (argument `output`) for anything else or a top level that is not an object.
 */
export function resolveOutput({ schema }: { schema: OutputSchema }): ResolvedOutput {
  if (schema === undefined || schema === null || typeof schema !== "object") {
    throw new InvalidArgumentError({
      argument: "output",
      message: "expected a zod schema or a JSON Schema object",
    });
  }
  let resolved: ReturnType<typeof resolveToolParameters>;
  try {
    resolved = resolveToolParameters({ parameters: schema });
  } catch (error) {
    const message =
      error instanceof Error ? error.message.replace(/^Invalid parameters: /, "") : String(error);
    throw new InvalidArgumentError({ argument: "output", message, cause: error });
  }
  const description =
    typeof resolved.jsonSchema.description === "string" ? resolved.jsonSchema.description : undefined;
  const format: OutputFormat = { name: OUTPUT_NAME, schema: resolved.jsonSchema };
  if (description !== undefined) format.description = description;
  return {
    format,
    async check(value) {
      const result = await resolved.parseArguments(value);
      if (result.ok) return { ok: true, value: result.value };
      const errors = result.issues.map((issue) => {
        const where = issue.path === "" ? "the answer" : `"${issue.path}"`;
        return `${where}: expected ${issue.expected}, received ${issue.received}`;
      });
      return { ok: false, errors: errors.length > 0 ? errors : ["the answer does not match the schema"] };
    },
  };
}

/** A fenced block around the whole answer (```json ... ```), which some models add even in JSON mode. */
const FENCE = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i;

/**
 * Decodes an answer text as JSON: the text itself, or the inside of a fenced code block that is the whole
 * answer. Refuses (with an error the model can act on) text that is not JSON or nests deeper than the
 * argument depth limit.
 */
export function decodeOutputText(text: string): OutputCheck {
  const body = FENCE.exec(text)?.[1] ?? text;
  if (body.trim() === "") return { ok: false, errors: ["the answer is empty: answer with a JSON object"] };
  if (jsonTextTooDeep(body)) return { ok: false, errors: [tooDeepMessage()] };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      errors: [`the answer is not valid JSON (${reason}): answer with a JSON object only`],
    };
  }
}
