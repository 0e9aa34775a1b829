import type { JsonSchema, OutputFormat } from "../../models/model.js";
import { toAnthropicJsonSchema } from "./to-anthropic-json-schema.js";

/** The Messages `output_config.format` of a JSON Schema answer. */
export interface AnthropicWireOutputFormat {
  type: "json_schema";
  schema: JsonSchema;
}

/** Options of {@link addAnthropicOutputFormat}. */
export interface AddAnthropicOutputFormatOptions {
  /** The request body, after `extraBody` and `providerOptions` were merged into it. */
  body: Record<string, unknown>;
  output: OutputFormat;
}

/**
 * Puts the answer format in `body.output_config.format` as `{type: "json_schema", schema}` (the schema
 * converted by `toAnthropicJsonSchema`; the format has no name or description field), keeping the other
 * `output_config` fields the options set (such as `effort`). An `output_config.format` given in the options
 * wins.
 */
export function addAnthropicOutputFormat({ body, output }: AddAnthropicOutputFormatOptions): void {
  const config = body.output_config;
  const given = config !== null && typeof config === "object" && !Array.isArray(config) ? config : {};
  if ("format" in given) return;
  const format: AnthropicWireOutputFormat = {
    type: "json_schema",
    schema: toAnthropicJsonSchema(output.schema),
  };
  body.output_config = { ...given, format };
}
