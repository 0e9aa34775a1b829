import type { JsonSchema, OutputFormat } from "../../models/model.js";
import { openAIFormatName } from "../openai/convert-to-openai-response-format.js";
import { toStrictJsonSchema } from "../openai/to-strict-json-schema.js";

/** The Responses `text.format` of a JSON Schema answer. */
export interface OpenAIResponsesWireTextFormat {
  type: "json_schema";
  name: string;
  description?: string;
  schema: JsonSchema;
  strict: boolean;
}

/**
 * Converts an {@link OutputFormat} to the Responses `text.format`:
 * `{type: "json_schema", name, description?, schema, strict}`, the schema in its strict form with
 * `strict: true` when `toStrictJsonSchema` can convert it, else as given with `strict: false`.
 */
export function convertToOpenAIResponsesTextFormat(output: OutputFormat): OpenAIResponsesWireTextFormat {
  const { schema, strict } = toStrictJsonSchema(output.schema);
  const format: OpenAIResponsesWireTextFormat = {
    type: "json_schema",
    name: openAIFormatName(output.name),
    schema,
    strict,
  };
  if (output.description !== undefined && output.description !== "") format.description = output.description;
  return format;
}

/** Options of {@link addOpenAIResponsesTextFormat}. */
export interface AddOpenAIResponsesTextFormatOptions {
  /** The request body, after `extraBody` and `providerOptions` were merged into it. */
  body: Record<string, unknown>;
  output: OutputFormat;
}

/**
 * Puts the answer format in `body.text.format`, keeping the other `text` fields the options set (such as
 * `verbosity`). A `text.format` given in the options wins.
 */
export function addOpenAIResponsesTextFormat({ body, output }: AddOpenAIResponsesTextFormatOptions): void {
  const text = body.text;
  const given = text !== null && typeof text === "object" && !Array.isArray(text) ? text : {};
  if ("format" in given) return;
  body.text = { ...given, format: convertToOpenAIResponsesTextFormat(output) };
}
