import { AgentloopError } from "../../errors/agentloop-error.js";

const SDK = "@modelcontextprotocol/sdk";

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

/**
 * Imports a module of the MCP SDK (an optional peer dependency) on first use, so that importing
 * `agentloop/mcp` costs nothing until a server is connected. Rejects with an {@link AgentloopError} that says
 * how to install the SDK when it is missing; other import failures are rethrown as they are.
 *
 * @example
 * const { Client } = await loadMcpModule({ load: () => import("@modelcontextprotocol/sdk/client/index.js") });
 */
export async function loadMcpModule<T>({ load }: { load: () => Promise<T> }): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    throw new AgentloopError({
      message: `agentloop/mcp needs the optional peer dependency ${SDK}: npm install ${SDK}`,
      cause: error,
    });
  }
}
