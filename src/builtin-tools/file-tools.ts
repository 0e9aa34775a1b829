import type { Tool } from "../tools/tool.js";
import { type FileToolsOptions, resolveFileToolsOptions } from "./file-tools-options.js";
import { listDirTool } from "./list-dir-tool.js";
import { readFileTool } from "./read-file-tool.js";
import { writeFileTool } from "./write-file-tool.js";

/**
 * Creates the file tools, sandboxed to one root directory: `read_file`, `write_file` (left out when
 * `allowWrite` is false) and `list_dir`. Each is also available alone ({@link readFileTool},
 * {@link writeFileTool}, {@link listDirTool}) with the same options.
 *
 * Sandbox: every path is relative to `root` (default `process.cwd()`) and is refused with a `SandboxError`
 * when it would leave it: absolute paths (`/x`, `C:\x`, `\\server\share`), `..` climbing above the root,
 * NUL bytes, and symbolic links (the file or any parent directory) that resolve outside the root. Links are
 * resolved with `fs.realpath` from the deepest existing ancestor, also for write targets that do not exist
 * yet, and containment is checked with `path.relative` (so `<root>-evil` is outside). A link inside the root
 * pointing inside it is followed. `list_dir` never follows links. `\` is a separator on every platform.
 *
 * Hard links: a file with more than one link may be the same file as one outside the root, so `write_file`
 * refuses it (checked again on the opened file when appending) and `read_file` refuses it too (checked on the
 * opened file) unless `allowHardLinkedReads`.
 *
 * Secrets: unless `allowSecretFiles`, `read_file` and `write_file` refuse files that likely hold credentials
 * (`.env`, `.env.*` but not `.env.example`, `.npmrc`, `.netrc`, `.pgpass`, `.git-credentials`, `id_rsa`,
 * `*.pem`, `*.key`, anything in `.git/`, `.ssh/`, `.aws/`, ...), by the path given and the path it resolves
 * to, and `read_file` refuses text holding a PEM private key. `list_dir` still lists their names.
 *
 * Residual risks: the check and the access are separate steps. The final component is opened with
 * `O_NOFOLLOW` (not on Windows), but a process that can write inside the root and swaps a parent directory
 * for a link between the check and the open can still redirect one access. Mount points inside the root are
 * not detected. Only give the tools a root that untrusted processes cannot modify.
 *
 * @example
 * const agent = new Agent({ model, tools: fileTools({ root: "./workspace", needsApprovalForWrite: true }) });
 */
export function fileTools(options: FileToolsOptions = {}): Tool[] {
  const config = resolveFileToolsOptions(options);
  const tools: Tool[] = [readFileTool(config)];
  if (config.allowWrite) tools.push(writeFileTool(config));
  tools.push(listDirTool(config));
  return tools;
}
