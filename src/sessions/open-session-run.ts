import { LockLostError } from "../errors/lock-lost-error.js";
import { SessionBusyError } from "../errors/session-busy-error.js";
import { SessionConflictError } from "../errors/session-conflict-error.js";
import type { Message } from "../models/message.js";
import { keepLockAlive } from "../stores/keep-lock-alive.js";
import {
  DEFAULT_SESSION_LOCK_TTL_MS,
  type JsonValue,
  type SessionData,
  type SessionStore,
} from "../stores/session-store.js";
import { canonicalJson } from "../util/canonical-json.js";
import { followSignal } from "../util/follow-signal.js";
import { randomUUID } from "../util/random-uuid.js";
import { boundStoreCall } from "./bound-store-call.js";
import {
  closePendingCalls,
  PAUSED_TURN_KEY,
  PENDING_APPROVALS_KEY,
  pausedTurnResults,
} from "./close-pending-calls.js";
import type { RunPersistence } from "./run-persistence.js";
import { RunState } from "./run-state.js";

/** Redacts what is persisted (see `createRedactor`): only when the user asked for stored redaction. */
export interface MessageRedactor {
  redactMessage(message: Message): Message;
  /** Redacts the session state (pending approvals, working memory) when present. */
  redactValue?(value: JsonValue): JsonValue;
}

/** Options of {@link openSessionRun}. */
export interface OpenSessionRunOptions {
  store: SessionStore;
  sessionId: string;
  /**
   * The run's time limit in ms (`Infinity`: none). Every store operation of the run (lock, load, append,
   * replace, saveState, release) is bounded by it, whatever client the store uses.
   */
  timeoutMs: number;
  /** The run's abort signal (store operations in flight are abandoned when it aborts). */
  signal?: AbortSignal | undefined;
  /** Stored redaction (the user's explicit choice); `undefined` stores the conversation as the model needs it. */
  redactor: MessageRedactor | undefined;
  /**
   * `true` when the run adds a new user message (not a resume): calls left open in the stored history (a run
   * paused for approval) are closed as not executed and the pending approval state is cleared.
   */
  newMessage: boolean;
}

/** A run's hold on its session: the loaded history and state, persistence for the loop, and the lock. */
export interface SessionRun {
  sessionId: string;
  history: Message[];
  state: RunState;
  /**
   * The run's signal: aborts with the caller's signal, and with a {@link LockLostError} when the session lock
   * is lost (after which every write rejects with that error).
   */
  signal: AbortSignal;
  /** Binds persistence to the run's messages array: `persistedCount` messages of it are already stored. */
  persistence(options: { persistedCount: number; systemMessage: Message | undefined }): RunPersistence;
  /** Stops the renewals and releases the lock (bounded; never rejects: a lock not released expires). */
  release(): Promise<void>;
  /**
   * What `newMessage: true` does, later (a durable run decides once it knows its log is new): closes a paused
   * run's calls as not executed, ends the pause, and resolves with the history the new run starts from.
   */
  startNewRun(): Promise<Message[]>;
  /**
   * How many messages the session holds after `prior` (the history a resumed durable run `runId` started
   * from): the part of that run stored before it was interrupted. 0 when `prior` is the loaded history. Throws
   * {@link SessionConflictError} when the session no longer continues `prior`; the persistence made next
   * checks, at its first write, that those stored messages are the ones the run rebuilt (not another run's).
   */
  storedSince(prior: readonly Message[], runId: string): number;
  /**
   * After a resumed durable run's loop: throws {@link SessionConflictError} when the run rebuilt fewer messages
   * than the session held after its start (the rest was written by another run).
   */
  checkStored(): void;
}

/** How long the writes that close a run and the lock release get once the run's deadline has passed. */
const GRACE_MS = 2_000;

/**
 * Takes the session's lock (rejecting with {@link SessionBusyError} when another run holds it), loads its
 * history and state, and returns what the loop needs to persist as it goes. The agent's own system prompt is
 * never stored (it is prepended on every run, so changing it takes effect).
 *
 * - The lock is renewed every third of its lifetime (the store's `lockTtlMs`, default 60 s) until `release`;
 *   a lost lock aborts `signal` and makes every later write reject with {@link LockLostError}.
 * - Every store operation is bounded by the run's deadline and signal (see `boundStoreCall`).
 * - Appends are idempotent: each gets an id, reused only to retry that same append (a failed write whose
 *   reply was lost is retried before anything newer), so a store never holds a step twice.
 * - With a `redactor`, what is stored is redacted: messages and the state (pending approvals included).
 */
export async function openSessionRun(options: OpenSessionRunOptions): Promise<SessionRun> {
  const { store, sessionId, redactor } = options;
  const deadline = Number.isFinite(options.timeoutMs) ? Date.now() + options.timeoutMs : Infinity;
  const ttlMs = store.lockTtlMs ?? DEFAULT_SESSION_LOCK_TTL_MS;
  const bounded = <T>(operation: string, call: () => Promise<T>, onLate?: (value: T) => void) =>
    boundStoreCall({
      operation,
      sessionId,
      call,
      deadline,
      signal: options.signal,
      graceMs: GRACE_MS,
      onLate,
    });

  const lock = await bounded(
    "lock",
    () => store.lock(sessionId, { ttlMs }),
    (late) => void late?.release().catch(() => undefined),
  );
  if (lock === undefined) throw new SessionBusyError({ sessionId });

  const controller = new AbortController();
  const unfollow = followSignal(options.signal, controller);
  let lostError: LockLostError | undefined;
  const heartbeat = keepLockAlive({
    lock,
    ttlMs,
    onLost: (cause) => {
      lostError = new LockLostError({ resource: "session", id: sessionId, cause });
      controller.abort(lostError);
    },
  });
  let released: Promise<void> | undefined;
  const release = (): Promise<void> => {
    released ??= (async () => {
      heartbeat.stop();
      unfollow();
      // A release that fails or hangs must not fail the run: the lock then expires after its TTL.
      if (lostError === undefined) await bounded("release", () => lock.release()).catch(() => undefined);
    })();
    return released;
  };
  const checkLock = () => {
    if (lostError !== undefined) throw lostError;
  };

  const redactMessages = (messages: readonly Message[]) =>
    redactor === undefined ? messages : messages.map((m) => redactor.redactMessage(m));
  const redactState = (state: { [key: string]: JsonValue }) =>
    redactor?.redactValue === undefined
      ? state
      : (redactor.redactValue(state) as { [key: string]: JsonValue });
  const isLive = () => Date.now() < deadline && options.signal?.aborted !== true;
  /** One append, tried again once at once when it fails while the run is live: the id makes that safe. */
  const append = async (messages: readonly Message[], appendId: string) => {
    const stored = redactMessages(messages);
    const attempt = () => bounded("append", () => store.append(sessionId, stored, { appendId }));
    try {
      await attempt();
    } catch (error) {
      if (!isLive() || lostError !== undefined) throw error;
      await attempt();
    }
  };

  let state: RunState;
  let history: Message[];
  /** What a resumed durable run must find it rebuilt (see `storedSince`), checked at its first write. */
  let expectedTail: { runId: string; messages: readonly Message[] } | undefined;
  /** A new message on a paused session: the pending calls are answered as not executed, the pause ends. */
  const startNewRun = async (): Promise<Message[]> => {
    // Calls that finished before a pause inside a sub-agent keep their results; the others are closed.
    const finished = pausedTurnResults(state.get(PAUSED_TURN_KEY));
    const closing = [...finished, ...closePendingCalls([...history, ...finished])];
    if (closing.length > 0) {
      await append(closing, randomUUID());
      history = [...history, ...closing];
    }
    if (state.get(PENDING_APPROVALS_KEY) !== undefined || state.get(PAUSED_TURN_KEY) !== undefined) {
      state.delete(PENDING_APPROVALS_KEY);
      state.delete(PAUSED_TURN_KEY);
      const saved = state.toJSON();
      await bounded("saveState", () => store.saveState(sessionId, redactState(saved)));
      state.markSaved();
    }
    return history;
  };
  try {
    const data: SessionData | undefined = await bounded("load", () => store.load(sessionId));
    state = new RunState(data?.state ?? {});
    history = data?.messages ?? [];
    if (options.newMessage) await startNewRun();
  } catch (error) {
    // The load error is the one to report; a failing release (the store is down) must not replace it.
    await release().catch(() => undefined);
    throw error;
  }

  return {
    sessionId,
    history,
    state,
    startNewRun,
    storedSince: (prior, runId) => {
      const stored = storedSince({ sessionId, runId, history, prior });
      if (stored > 0) expectedTail = { runId, messages: history.slice(history.length - stored) };
      return stored;
    },
    checkStored: () => {
      if (expectedTail === undefined) return;
      const reason =
        "the session holds more messages after the run's start than the run wrote (another run wrote in between)";
      throw new SessionConflictError({ sessionId, runId: expectedTail.runId, reason });
    },
    signal: controller.signal,
    persistence: ({ persistedCount, systemMessage }) => {
      let persisted = persistedCount;
      // An append that failed (perhaps applied, its reply lost): retried first, with its id, before newer ones.
      let pending: { appendId: string; count: number } | undefined;
      const saveState = async () => {
        if (!state.dirty) return;
        const saved = state.toJSON();
        await bounded("saveState", () => store.saveState(sessionId, redactState(saved)));
        state.markSaved();
      };
      return {
        flush: async (messages) => {
          checkLock();
          if (expectedTail !== undefined) {
            // The part of the stored tail the run has rebuilt so far must match it.
            const tail = expectedTail;
            const start = persistedCount - tail.messages.length;
            const rebuilt = redactMessages(messages.slice(start, Math.min(messages.length, persistedCount)));
            checkTail({
              sessionId,
              tail: { ...tail, messages: tail.messages.slice(0, rebuilt.length) },
              rebuilt,
            });
            if (rebuilt.length === tail.messages.length) expectedTail = undefined;
          }
          if (pending !== undefined) {
            await append(messages.slice(persisted, persisted + pending.count), pending.appendId);
            persisted += pending.count;
            pending = undefined;
          }
          if (messages.length > persisted) {
            pending = { appendId: randomUUID(), count: messages.length - persisted };
            await append(messages.slice(persisted), pending.appendId);
            persisted += pending.count;
            pending = undefined;
          }
          await saveState();
        },
        replace: async (messages) => {
          checkLock();
          const stored = messages[0] === systemMessage ? messages.slice(1) : messages;
          await bounded("replace", () => store.replace(sessionId, redactMessages(stored)));
          persisted = messages.length;
          pending = undefined;
          await saveState();
        },
      };
    },
    release,
  };
}

/** See {@link SessionRun.storedSince}. */
function storedSince(args: {
  sessionId: string;
  runId: string;
  history: readonly Message[];
  prior: readonly Message[];
}): number {
  const { history, prior } = args;
  if (prior === history) return 0;
  const last = prior.length - 1;
  const continues =
    history.length >= prior.length &&
    (last < 0 || canonicalJson(history[last]) === canonicalJson(prior[last]));
  if (!continues) {
    const reason = "the session changed since the run started (another run wrote to it)";
    throw new SessionConflictError({ sessionId: args.sessionId, runId: args.runId, reason });
  }
  return history.length - prior.length;
}

/** The messages a resumed run found stored must be the ones it rebuilt, else another run wrote in between. */
function checkTail(args: {
  sessionId: string;
  tail: { runId: string; messages: readonly Message[] };
  rebuilt: readonly Message[];
}): void {
  const { tail, rebuilt } = args;
  // Canonical: a store may give the keys back in another order (PostgreSQL jsonb does).
  if (canonicalJson(rebuilt) === canonicalJson(tail.messages)) return;
  const reason =
    "the session holds messages after the run's own that the run did not write (another run wrote in between)";
  throw new SessionConflictError({ sessionId: args.sessionId, runId: tail.runId, reason });
}
