import {
  type AskCallback,
  askUserTool,
  calculator,
  currentTimeTool,
  fileTools,
  httpGetTool,
} from "../builtin-tools/index.js";
import type { Tool } from "../tools/tool.js";
import type { CliToolName } from "./cli-tool-names.js";

/** Options of {@link buildCliTools}. */
export interface BuildCliToolsOptions {
  /** The tools to make, by name. */
  names: readonly CliToolName[];
  /** The file tools' sandbox root. */
  cwd: string;
  /** How `ask_user` asks the human (the CLI prompts on stderr and reads a line of stdin). */
  ask: AskCallback;
}

/**
 * The built-in tools named by `--tools`, in that order. The file tools (`read_file`, `write_file`,
 * `list_dir`) are sandboxed to `cwd`, and every `write_file` call needs approval: the CLI asks before
 * anything is written.
 */
export function buildCliTools({ names, cwd, ask }: BuildCliToolsOptions): Tool[] {
  const wantsFiles = names.some(
    (name) => name === "read_file" || name === "write_file" || name === "list_dir",
  );
  const files = wantsFiles ? fileTools({ root: cwd, needsApprovalForWrite: true }) : [];
  return names.map((name): Tool => {
    switch (name) {
      case "calculator":
        return calculator as Tool;
      case "current_time":
        return currentTimeTool() as Tool;
      case "http_get":
        return httpGetTool() as Tool;
      case "ask_user":
        return askUserTool({ ask }) as Tool;
      default: {
        const found = files.find((candidate) => candidate.name === name);
        if (found === undefined) throw new Error(`the built-in file tools have no ${name}`);
        return found;
      }
    }
  });
}
