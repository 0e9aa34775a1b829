import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { ModelToolSpec } from "../models/model.js";
import { findSecretInTool } from "./find-secret-in-tool.js";

/** How an error message names each kind of secret {@link findSecretInTool} reports. */
const SECRET_KINDS: { readonly [kind: string]: string } = {
  api_key: "an API key",
  bearer_token: "a bearer token",
  secret: "a credential value",
  aws_access_key: "an AWS access key id",
  private_key: "a private key",
};

/** Options of {@link checkToolSecrets}. */
export interface CheckToolSecretsOptions {
  /** The tool: its name and its spec as the model sees it. */
  tool: { readonly name: string; readonly spec: ModelToolSpec };
  /** Appended to the message: how to leave the tool out where it comes from (e.g. MCP's `exclude`). */
  remedy?: string;
}

/**
 * The check every path that offers a tool to a model goes through (`ToolRegistry.register`, `McpRegistry.add`):
 * throws {@link InvalidArgumentError} (argument "tool") when the tool's description, or a description in its
 * parameters' schema, contains what looks like a secret (see {@link findSecretInTool}). The message names the
 * tool, the kind of secret and where it is, never the secret itself.
 */
export function checkToolSecrets({ tool, remedy }: CheckToolSecretsOptions): void {
  const secret = findSecretInTool({ tool });
  if (secret === undefined) return;
  throw new InvalidArgumentError({
    argument: "tool",
    message:
      `tool "${tool.name}" has what looks like ${SECRET_KINDS[secret.kind] ?? "a secret"} (${secret.kind}) ` +
      `in its ${secret.location} ` +
      `(starting "${secret.preview}"); descriptions are sent to the model provider on every request, so keep ` +
      `secrets out of them (read them in execute() instead)${remedy === undefined ? "" : `; ${remedy}`}`,
  });
}
