/**
 * Built-in tools (`agentloop/tools`), opt-in: import only what you give your agent. Kept out of the core entry
 * so that `import "agentloop"` loads no tool dependencies (the calculator's expression parser, `jsep`). Every
 * tool here uses a plain JSON Schema, so none needs zod.
 */

export { HttpGetError } from "../errors/http-get-error.js";
export { SandboxError } from "../errors/sandbox-error.js";
export { type WorkingMemoryOptions, workingMemoryTools } from "../memory/working-memory-tools.js";
export type { LookupFunction } from "./address-policy.js";
export {
  type AskCallback,
  type AskUserArgs,
  type AskUserToolOptions,
  askUserTool,
  NO_ANSWER,
} from "./ask-user-tool.js";
export { calculator } from "./calculator.js";
export {
  type CurrentTime,
  type CurrentTimeArgs,
  type CurrentTimeToolOptions,
  currentTimeTool,
} from "./current-time-tool.js";
export { evaluateExpression, MAX_EXPRESSION_LENGTH } from "./evaluate-expression.js";
export { fileTools } from "./file-tools.js";
export { DEFAULT_MAX_FILE_BYTES, type FileToolsOptions } from "./file-tools-options.js";
export { type HttpGetArgs, type HttpGetToolOptions, httpGetTool } from "./http-get-tool.js";
export { DEFAULT_LIST_ENTRIES, type ListDirArgs, listDirTool, MAX_LIST_ENTRIES } from "./list-dir-tool.js";
export { type ReadFileArgs, readFileTool } from "./read-file-tool.js";
export { MAX_SANDBOX_PATH_LENGTH } from "./resolve-sandbox-path.js";
export { type TerminalAskOptions, terminalAsk } from "./terminal-ask.js";
export { type WriteFileArgs, writeFileTool } from "./write-file-tool.js";
