import { DEFAULT_RETRY_POLICY, type RetryPolicy, resolveRetryPolicy } from "../http/retry-policy.js";
import type { Model } from "../models/model.js";

/**
 * The one retry policy of an agent, which governs every retry of its model calls (failed requests and
 * broken streams alike, see `callModel`): the model's own policy (`model.retryPolicy`, e.g. the provider's
 * `createOpenAI({ retry })`, else the default), with the agent's `retry` option on top (its defined keys
 * win). Throws `InvalidArgumentError` for an invalid `retry` option.
 */
export function resolveAgentRetryPolicy({
  retry,
  model,
}: {
  retry: Partial<RetryPolicy> | undefined;
  model: Model;
}): RetryPolicy {
  const own = resolveRetryPolicy(retry); // validates the agent's option
  const modelPolicy = model.retryPolicy;
  const base = modelPolicy === undefined ? DEFAULT_RETRY_POLICY : resolveRetryPolicy(modelPolicy);
  const policy: RetryPolicy = { ...base };
  for (const key of ["maxRetries", "baseDelayMs", "maxDelayMs"] as const) {
    if (retry?.[key] !== undefined) policy[key] = own[key];
  }
  return policy;
}
