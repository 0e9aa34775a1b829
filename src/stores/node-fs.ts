import { type NodeBuiltins, nodeBuiltin } from "../util/node-builtin.js";

let fsPromises: NodeBuiltins["node:fs/promises"] | undefined;
let path: NodeBuiltins["node:path"] | undefined;

/**
 * `node:fs/promises` for the file-backed stores (FileStore, FileStateStore, FileJournal), read on first use
 * so the root entry imports no `node:*` module. Throws `UnsupportedRuntimeError` naming `feature` where the
 * runtime has no Node built-ins.
 */
export function nodeFs(feature = "file storage"): NodeBuiltins["node:fs/promises"] {
  fsPromises ??= nodeBuiltin({ id: "node:fs/promises", feature });
  return fsPromises;
}

/** `node:path`, as {@link nodeFs}. */
export function nodePath(feature = "file storage"): NodeBuiltins["node:path"] {
  path ??= nodeBuiltin({ id: "node:path", feature });
  return path;
}
