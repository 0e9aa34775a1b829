export { type ToolArgumentIssue, ToolArgumentsError } from "../errors/tool-arguments-error.js";
export { ToolExecutionError } from "../errors/tool-execution-error.js";
export { ToolNotFoundError } from "../errors/tool-not-found-error.js";
export { ToolTimeoutError } from "../errors/tool-timeout-error.js";
export {
  DEFAULT_MAX_RESULT_CHARS,
  DEFAULT_TOOL_CONCURRENCY,
  DEFAULT_TOOL_TIMEOUT_MS,
  type ExecuteToolCallsOptions,
  executeToolCalls,
  type ToolOutcome,
} from "./execute-tool-calls.js";
export {
  type FindSecretInToolOptions,
  findSecretInTool,
  type ToolSecretFinding,
} from "./find-secret-in-tool.js";
export { EMPTY_RESULT, formatToolResult, truncateToolResult } from "./format-tool-result.js";
export {
  type CreateJsonSchemaValidatorOptions,
  createJsonSchemaValidator,
  type JsonSchemaValidator,
} from "./json-schema-validator.js";
export { isZodSchema, type ToolArgumentsResult } from "./resolve-tool-parameters.js";
export {
  type ApprovalCheck,
  type JsonSchemaToolOptions,
  type NoParametersToolOptions,
  type Tool,
  type ToolContext,
  tool,
  type ZodToolOptions,
} from "./tool.js";
export { type ToolContent, toolContent } from "./tool-content.js";
export { ToolRegistry, type ToolRegistryExecuteContext } from "./tool-registry.js";
export { type ValidateJsonSchemaOptions, validateJsonSchema } from "./validate-json-schema.js";
