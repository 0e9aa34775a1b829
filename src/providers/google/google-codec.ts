/**
 * The heavy half of {@link GoogleGeminiModel}: request body, response and stream parsing. Loaded on a model's
 * first call (see lazy-implementation.ts), so that it stays out of what `import("agentloop")` loads.
 */
export { buildGoogleBody } from "./build-google-body.js";
export { isRetryableGoogleStatus, parseGoogleErrorBody } from "./parse-google-error.js";
export { parseGoogleResponse } from "./parse-google-response.js";
export { readGoogleStream } from "./read-google-stream.js";
