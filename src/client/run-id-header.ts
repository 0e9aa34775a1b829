/**
 * The response header that names a durable run's id (`x-agentloop-run-id`): sent by `toSSEResponse` and
 * `pipeToNodeResponse` (`agentloop/web`) for a durable run, read by `streamRun` to reconnect to it. A page on
 * another origin can read it only when the server exposes it (`access-control-expose-headers`).
 */
export const RUN_ID_HEADER = "x-agentloop-run-id";
