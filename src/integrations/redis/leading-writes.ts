import type { ChainableCommander } from "ioredis";
import { hashedPart } from "./hash-tag.js";
import { isCluster, type RedisClient } from "./redis-client.js";

/** One command's reply in an ioredis pipeline or MULTI: `[error, result]`. */
export type PipelineReply = [Error | null, unknown];

/** Writes moved into a journal's request by {@link LeadingWrites.take}. */
export interface TakenWrites {
  /** How many commands were queued (the first `count` replies of the request are theirs). */
  readonly count: number;
  /** Called once with their replies, or with the error that failed the whole request. */
  settle(outcome: { replies: readonly PipelineReply[] } | { error: unknown }): void;
}

/**
 * Writes of a run that are waiting to be sent (e.g. its events), which a journal append of the same run on
 * the same client carries in front of its own commands, in the same request: one round trip instead of two,
 * and the writes stay ahead of the record on the connection, as if they had been sent first.
 */
export interface LeadingWrites {
  /** Queues the pending writes (all of one hash tag with the run's keys) into `into`; `undefined` when none. */
  take(into: ChainableCommander): TakenWrites | undefined;
}

/** A journal that carries leading writes: the client its appends use, and the key of a run's records. */
interface Carrier {
  client: RedisClient;
  runKey: (runId: string) => string;
}

/** Each journal that carries leading writes. */
const carriers = new WeakMap<object, Carrier>();
/** The leading writes attached to each carrier, by run id. */
const attached = new WeakMap<object, Map<string, Set<LeadingWrites>>>();

/**
 * Marks `journal` as carrying leading writes on its appends made with `client` (the journal's constructor);
 * `runKey` names the key its appends write (a run's writes are carried only when they share its slot).
 */
export function carryLeadingWrites(args: { journal: object } & Carrier): void {
  carriers.set(args.journal, { client: args.client, runKey: args.runKey });
}

/**
 * Attaches `writes` to `journal`'s appends of `runId`, when the journal carries leading writes and appends with
 * `client` (the client the writes would otherwise be sent with, so their order is kept), and, on a Redis
 * Cluster, when `key` (the key the writes touch) shares the slot of the run's records. Returns the function
 * that detaches them, or `undefined` when the journal cannot carry them (the writes must then go on their own).
 */
export function attachLeadingWrites(args: {
  journal: object;
  client: RedisClient;
  key: string;
  runId: string;
  writes: LeadingWrites;
}): (() => void) | undefined {
  const { journal, client, key, runId, writes } = args;
  const carrier = carriers.get(journal);
  if (carrier === undefined || carrier.client !== client) return undefined;
  if (isCluster(client) && hashedPart(key) !== hashedPart(carrier.runKey(runId))) return undefined;
  const runs = attached.get(journal) ?? new Map<string, Set<LeadingWrites>>();
  attached.set(journal, runs);
  const set = runs.get(runId) ?? new Set<LeadingWrites>();
  runs.set(runId, set);
  set.add(writes);
  return () => {
    set.delete(writes);
    if (set.size === 0 && runs.get(runId) === set) runs.delete(runId);
  };
}

/**
 * Queues into `into` the writes attached to `journal`'s run `runId`; returns what was taken, in queue order
 * (empty when nothing is attached or pending).
 */
export function takeLeadingWrites(args: {
  journal: object;
  runId: string;
  into: ChainableCommander;
}): TakenWrites[] {
  const set = attached.get(args.journal)?.get(args.runId);
  if (set === undefined) return [];
  const taken: TakenWrites[] = [];
  for (const writes of set) {
    const part = writes.take(args.into);
    if (part !== undefined) taken.push(part);
  }
  return taken;
}

/**
 * Hands each taken part its replies (the first ones of `replies`, in order) and returns the rest (the
 * journal's own), or hands every part `error` when the request failed as a whole.
 */
export function settleLeadingWrites(
  taken: readonly TakenWrites[],
  outcome: { replies: readonly PipelineReply[] } | { error: unknown },
): readonly PipelineReply[] {
  if ("error" in outcome) {
    for (const part of taken) part.settle(outcome);
    return [];
  }
  let offset = 0;
  for (const part of taken) {
    part.settle({ replies: outcome.replies.slice(offset, offset + part.count) });
    offset += part.count;
  }
  return outcome.replies.slice(offset);
}
