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
  /**
   * `--allow-net`: the hosts `http_get` may fetch without asking (`*.example.com` wildcards). Without it every
   * `http_get` call needs approval. Private, loopback and link-local addresses are refused either way unless
   * a host is named here exactly.
   */
  allowNet?: readonly string[] | undefined;
  /** How `ask_user` asks the human (the CLI prompts on stderr and reads a line of stdin). */
  ask: AskCallback;
}

/**
 * The built-in tools named by `--tools`, in that order, with safe defaults: the file tools (`read_file`,
 * `write_file`, `list_dir`) are sandboxed to `cwd`, refuse files that likely hold secrets (`.env`, `.npmrc`,
 * `.git/`, private keys) and hard-linked files, and every `write_file` call needs approval. `http_get`
 * refuses non-public addresses, and needs approval for every call unless `allowNet` lists the hosts it may
 * fetch (then it fetches only those, without asking).
 */
export function buildCliTools({ names, cwd, ask, allowNet }: BuildCliToolsOptions): Tool[] {
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
        return (
          allowNet === undefined
            ? httpGetTool({ needsApproval: true })
            : httpGetTool({ allowHosts: allowNet })
        ) as Tool;
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
