import type { JsonSchema, OutputFormat } from "../../models/model.js";
import { toStrictJsonSchema } from "./to-strict-json-schema.js";

/** The Chat Completions `response_format` of a JSON Schema answer. */
export interface OpenAIWireResponseFormat {
  type: "json_schema";
  json_schema: {
    name: string;
    description?: string;
    schema: JsonSchema;
    strict: boolean;
  };
}

/**
 * The schema name as OpenAI accepts it: `[a-zA-Z0-9_-]`, at most 64 characters (other characters become
 * `_`; an empty name becomes "output"). The name is only a label for the model.
 */
export function openAIFormatName(name: string): string {
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
  return cleaned === "" ? "output" : cleaned;
}

/**
 * Converts an {@link OutputFormat} to the Chat `response_format`:
 * `{type: "json_schema", json_schema: {name, description?, schema, strict}}`. The schema is sent in its strict
 * form with `strict: true` when {@link toStrictJsonSchema} can convert it, else as given with `strict: false`
 * (the model is then asked, not forced, to follow it; the agent validates the answer either way).
 */
export function convertToOpenAIResponseFormat(output: OutputFormat): OpenAIWireResponseFormat {
  const { schema, strict } = toStrictJsonSchema(output.schema);
  const jsonSchema: OpenAIWireResponseFormat["json_schema"] = {
    name: openAIFormatName(output.name),
    schema,
    strict,
  };
  if (output.description !== undefined && output.description !== "")
    jsonSchema.description = output.description;
  return { type: "json_schema", json_schema: jsonSchema };
}
