import { randomUUID } from "node:crypto";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { LockLostError } from "../errors/lock-lost-error.js";
import { SessionBusyError } from "../errors/session-busy-error.js";
import type { Message } from "../models/message.js";
import { keepLockAlive } from "../stores/keep-lock-alive.js";
import {
  DEFAULT_SESSION_LOCK_TTL_MS,
  type JsonValue,
  type SessionData,
  type SessionStore,
} from "../stores/session-store.js";
import { followSignal } from "../util/follow-signal.js";
import { boundStoreCall } from "./bound-store-call.js";
import { closePendingCalls, PENDING_APPROVALS_KEY } from "./close-pending-calls.js";
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
   * How many messages the session holds after `prior` (the history a resumed durable run started from): the
   * part of that run stored before it was interrupted. 0 when `prior` is the loaded history. Throws
   * `InvalidArgumentError` when the session no longer continues `prior` (another run wrote to it).
   */
  storedSince(prior: readonly Message[]): number;
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
  /** A new message on a paused session: the pending calls are answered as not executed, the pause ends. */
  const startNewRun = async (): Promise<Message[]> => {
    const closing = closePendingCalls(history);
    if (closing.length > 0) {
      await append(closing, randomUUID());
      history = [...history, ...closing];
    }
    if (state.get(PENDING_APPROVALS_KEY) !== undefined) {
      state.delete(PENDING_APPROVALS_KEY);
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
    storedSince: (prior) => storedSince({ sessionId, history, prior }),
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
  history: readonly Message[];
  prior: readonly Message[];
}): number {
  const { history, prior } = args;
  if (prior === history) return 0;
  const last = prior.length - 1;
  const continues =
    history.length >= prior.length &&
    (last < 0 || JSON.stringify(history[last]) === JSON.stringify(prior[last]));
  if (!continues) {
    throw new InvalidArgumentError({
      argument: "sessionId",
      message: `session "${args.sessionId}" changed since this run started (another run wrote to it); the run cannot continue in it`,
    });
  }
  return history.length - prior.length;
}
