import { Job, type JobsOptions, type Queue } from "bullmq";
import type { RedisClient } from "../redis/redis-client.js";
import { type AgentJobData, type QueueKeyspace, resumeJobId } from "./agent-job.js";
import type { RunSummary } from "./durable-api.js";
import { SessionOrder } from "./session-order.js";

/** Options of {@link addAgentJob}. */
export interface AddAgentJobOptions {
  queue: Queue<AgentJobData, RunSummary>;
  keyspace: QueueKeyspace;
  data: AgentJobData;
  /** BullMQ's job options (attempts, backoff, retention); the job id is set here. */
  opts: JobsOptions;
}

/** The queue's own client (BullMQ types it as its minimal interface; it is an ioredis client). */
async function clientOf(queue: Queue<AgentJobData, RunSummary>): Promise<RedisClient> {
  return (await queue.client) as unknown as RedisClient;
}

/** The key counting the resume jobs of a run: `<prefix>:<name>:resumes:<runId>`. */
export function resumesKey({ prefix, name }: QueueKeyspace, runId: string): string {
  return `${prefix}:${name}:resumes:${runId}`;
}

/**
 * Adds a run's job (id `runId`) and, for a run of a session, its place at the end of the session's order, in
 * one MULTI: a worker never sees the job without its place. Enqueuing a run id whose job exists adds nothing
 * (BullMQ keeps the existing job; the run keeps its place).
 */
export async function addAgentJob({ queue, keyspace, data, opts }: AddAgentJobOptions): Promise<void> {
  const client = await clientOf(queue);
  const multi = client.multi();
  const { runId, sessionId } = data;
  if (sessionId !== undefined) {
    SessionOrder.push({ multi, keyspace, sessionId, runId, jobKey: queue.toKey(runId) });
  }
  const job = new Job<AgentJobData, RunSummary>(queue, data.agent, data, { ...opts, jobId: runId }, runId);
  // BullMQ's own add script, queued on the MULTI (as its FlowProducer does).
  void job.addJob(multi as unknown as Parameters<typeof job.addJob>[0], { parentDependenciesKey: "" });
  const replies = await multi.exec();
  const failed = replies?.find(([error]) => error !== null)?.[0];
  if (failed) throw failed;
  if (replies === null) throw new Error(`enqueuing run "${runId}" was aborted`);
}

/**
 * Adds a job that resumes run `data.runId` (paused for approval) with `data.resume`: its id is the run's next
 * `<runId>:resume:<n>`, counted in {@link resumesKey} (kept `ttlSeconds`). Resolves with the job id.
 */
export async function addResumeJob(args: AddAgentJobOptions & { ttlSeconds: number }): Promise<string> {
  const { queue, keyspace, data, opts } = args;
  const client = await clientOf(queue);
  const key = resumesKey(keyspace, data.runId);
  const [[countError, n] = [null, null]] =
    (await client.multi().incr(key).expire(key, Math.ceil(args.ttlSeconds)).exec()) ?? [];
  if (countError) throw countError;
  const jobId = resumeJobId(data.runId, String(n));
  await queue.add(data.agent, data, { ...opts, jobId });
  return jobId;
}

/** The id of the latest job of a run: its last resume job, or the run's own job. */
export async function latestJobId(args: {
  queue: Queue<AgentJobData, RunSummary>;
  keyspace: QueueKeyspace;
  runId: string;
}): Promise<string> {
  const client = await clientOf(args.queue);
  const n = await client.get(resumesKey(args.keyspace, args.runId));
  return n === null ? args.runId : resumeJobId(args.runId, n);
}
