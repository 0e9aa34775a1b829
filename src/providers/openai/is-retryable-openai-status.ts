import { isRetryableStatus } from "../../errors/model-call-error.js";
import type { ErrorBodyInfo } from "../../http/send-model-request.js";

/**
 * Retryability of an error status for OpenAI: 408/409/429/5xx, except a 429 whose code is
 * `insufficient_quota` (the account is out of credit; waiting does not help).
 */
export function isRetryableOpenAIStatus(status: number, info: ErrorBodyInfo): boolean {
  if (status === 429 && info.code === "insufficient_quota") return false;
  return isRetryableStatus(status);
}
