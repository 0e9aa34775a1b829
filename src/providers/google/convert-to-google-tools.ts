import type { JsonSchema, ModelToolSpec, ToolChoice } from "../../models/model.js";
import type {
  GoogleWireFunctionDeclaration,
  GoogleWireTool,
  GoogleWireToolConfig,
} from "./google-wire-types.js";
import { toGoogleJsonSchema } from "./to-google-json-schema.js";

/**
 * Converted tool arrays, keyed by the identity of the request's `tools` array: an agent passes the same array
 * every turn, so it is converted once. Weak, so dropped arrays are collected.
 */
const toolCache = new WeakMap<readonly ModelToolSpec[], GoogleWireTool[]>();

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** True for an object schema that takes no argument at all (no properties, nothing else allowed). */
function takesNoArguments(schema: JsonSchema): boolean {
  const properties = schema.properties;
  const none =
    properties === undefined || (isPlainObject(properties) && Object.keys(properties).length === 0);
  const open = schema.additionalProperties !== undefined && schema.additionalProperties !== false;
  return none && !open && schema.$ref === undefined && schema.anyOf === undefined;
}

function declarationOf(tool: ModelToolSpec): GoogleWireFunctionDeclaration {
  const declaration: GoogleWireFunctionDeclaration = { name: tool.name, description: tool.description };
  const schema = toGoogleJsonSchema({ schema: tool.parameters, argument: `tools.${tool.name}.parameters` });
  if (!takesNoArguments(schema)) {
    declaration.parametersJsonSchema = schema.type === undefined ? { type: "object", ...schema } : schema;
  }
  return declaration;
}

/**
 * Converts tools to one `{functionDeclarations: [...]}` entry, cached per array identity (treat tool arrays as
 * immutable). Each declaration is `{name, description, parametersJsonSchema}`: the parameters in JSON Schema
 * (see `toGoogleJsonSchema`; Gemini's older `parameters` field takes only an OpenAPI subset without `$ref`,
 * `anyOf` or `additionalProperties`), left out for a tool without arguments.
 */
export function convertToGoogleTools(tools: readonly ModelToolSpec[]): GoogleWireTool[] {
  const cached = toolCache.get(tools);
  if (cached !== undefined) return cached;
  const converted = [{ functionDeclarations: tools.map(declarationOf) }];
  toolCache.set(tools, converted);
  return converted;
}

/**
 * Converts a neutral {@link ToolChoice} to `toolConfig.functionCallingConfig`: `auto` → `AUTO`, `none` →
 * `NONE`, `required` → `ANY`, `{type:"tool", name}` → `ANY` with `allowedFunctionNames: [name]`. Undefined for
 * no choice (the API's default is `AUTO`). Gemini has no switch for parallel calls.
 */
export function convertToGoogleToolConfig(choice: ToolChoice | undefined): GoogleWireToolConfig | undefined {
  if (choice === undefined) return undefined;
  if (choice === "auto") return { functionCallingConfig: { mode: "AUTO" } };
  if (choice === "none") return { functionCallingConfig: { mode: "NONE" } };
  if (choice === "required") return { functionCallingConfig: { mode: "ANY" } };
  return { functionCallingConfig: { mode: "ANY", allowedFunctionNames: [choice.name] } };
}
