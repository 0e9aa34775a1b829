import type { BodyEdits } from "./compatible-body-editor.js";

/**
 * Azure OpenAI's two routes (learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle):
 * - the v1 API (GA since August 2025, the default here): `{endpoint}/openai/v1/chat/completions`, the
 *   deployment name in the body's `model`, no `api-version` needed (`"preview"` opts into preview features);
 * - the deployment route of the dated API versions: `{endpoint}/openai/deployments/{deployment}/chat/completions
 *   ?api-version=2024-10-21`.
 *
 * Body differences by version: the v1 API and dated versions from 2024-09-01 on take `max_completion_tokens`,
 * which reasoning deployments (o-series, gpt-5) require instead of `max_tokens` (rejected with "Unsupported
 * parameter: 'max_tokens'"), so `max_tokens` is sent under that name. Dated versions before 2024-09-01 do not
 * know `stream_options` ("Unrecognized request argument supplied: stream_options", openai/openai-python#1469)
 * nor `parallel_tool_calls` (both added in 2024-09-01-preview): they are not sent, and such streams report no
 * usage.
 */

/** The date from which dated API versions take `stream_options`, `parallel_tool_calls`, `max_completion_tokens`. */
const MODERN_API_DATE = "2024-09-01";

/** Options of {@link resolveAzureOpenAIRoute}. */
export interface ResolveAzureOpenAIRouteOptions {
  /** The resource endpoint, e.g. `https://my-resource.openai.azure.com` (a trailing `/openai[/v1]` is ignored). */
  endpoint: string;
  /** `api-version`: none (the v1 API), `"v1"`/`"preview"`/`"latest"` (v1 API), or a dated version. */
  apiVersion: string | undefined;
}

/** Where an Azure model's requests go, and how its body differs. */
export interface AzureOpenAIRoute {
  /** `v1`: the v1 API; `deployments`: the deployment route of a dated API version. */
  kind: "v1" | "deployments";
  /** The chat completions URL of a deployment. */
  chatURL(deployment: string): string;
  /** The body fields this API version renames or does not know. */
  edits: BodyEdits;
}

/** Whether an api-version is a dated one (`2024-10-21`, `2025-04-01-preview`), which needs the deployment route. */
function isDated(apiVersion: string): boolean {
  return /^\d{4}-\d{2}-\d{2}/.test(apiVersion);
}

/** The endpoint without trailing slashes and without a trailing `/openai` or `/openai/v1`. */
function resourceRoot(endpoint: string): string {
  return endpoint.replace(/\/+$/, "").replace(/\/openai(\/v1)?$/, "");
}

/** The route of an Azure OpenAI resource for an API version (see the module notes). */
export function resolveAzureOpenAIRoute({
  endpoint,
  apiVersion,
}: ResolveAzureOpenAIRouteOptions): AzureOpenAIRoute {
  const root = resourceRoot(endpoint);
  const query = apiVersion === undefined ? "" : `?api-version=${encodeURIComponent(apiVersion)}`;
  if (apiVersion === undefined || !isDated(apiVersion)) {
    const url = `${root}/openai/v1/chat/completions${query}`;
    return {
      kind: "v1",
      chatURL: () => url,
      edits: { renameFields: { max_tokens: "max_completion_tokens" } },
    };
  }
  const edits: BodyEdits =
    apiVersion.slice(0, 10) >= MODERN_API_DATE
      ? { renameFields: { max_tokens: "max_completion_tokens" } }
      : { dropFields: ["stream_options", "parallel_tool_calls"] };
  return {
    kind: "deployments",
    chatURL: (deployment) =>
      `${root}/openai/deployments/${encodeURIComponent(deployment)}/chat/completions${query}`,
    edits,
  };
}
