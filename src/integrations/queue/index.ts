/**
 * `agentloop/queue`: agent runs on a BullMQ queue (needs the `bullmq` and `ioredis` peer dependencies).
 * `createAgentQueue` enqueues runs and follows them from any process (`result`, `events`);
 * `createAgentWorker` executes them durably, so a run whose worker died resumes on another one; runs of a
 * session start in the order they were enqueued; `resume` decides a run paused for approval; `send` adds a
 * user message to a queued or running run. See docs/deployment.md.
 */

export { RunFailedError } from "../../errors/run-failed-error.js";
export { RunTimeoutError } from "../../errors/run-timeout-error.js";
export type { AgentJobData, QueuedDecisions } from "./agent-job.js";
export {
  type AgentQueue,
  type AgentQueueOptions,
  createAgentQueue,
  type EnqueueOptions,
  type QueueEventsOptions,
  type QueueResumeOptions,
} from "./create-agent-queue.js";
export { type AgentWorker, type AgentWorkerOptions, createAgentWorker } from "./create-agent-worker.js";
export type { AgentQueueConnection } from "./queue-connection.js";
export type { RunEventEntry } from "./read-run-events.js";
export type { QueueSendRefusal, QueueSendResult, QueueSteeringOptions } from "./send-steering-message.js";
