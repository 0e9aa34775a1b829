import { SessionBusyError } from "../errors/session-busy-error.js";
import type { Message } from "../models/message.js";
import type { SessionStore } from "../stores/session-store.js";
import type { RunPersistence } from "./run-persistence.js";
import { RunState } from "./run-state.js";

/** Redacts what is persisted (see `createRedactor`). */
export interface MessageRedactor {
  redactMessage(message: Message): Message;
}

/** Options of {@link openSessionRun}. */
export interface OpenSessionRunOptions {
  store: SessionStore;
  sessionId: string;
  /** How long the session lock lives if this process dies without releasing it. */
  lockTtlMs: number;
  redactor: MessageRedactor | undefined;
}

/** A run's hold on its session: the loaded history and state, persistence for the loop, and the lock. */
export interface SessionRun {
  history: Message[];
  state: RunState;
  /** Binds persistence to the run's messages array: `persistedCount` messages of it are already stored. */
  persistence(options: { persistedCount: number; systemMessage: Message | undefined }): RunPersistence;
  release(): Promise<void>;
}

/**
 * Takes the session's lock (rejecting with {@link SessionBusyError} when another run holds it), loads its
 * history and state, and returns what the loop needs to persist as it goes. The agent's own system prompt is
 * never stored (it is prepended on every run, so changing it takes effect); everything else is, redacted.
 */
export async function openSessionRun(options: OpenSessionRunOptions): Promise<SessionRun> {
  const { store, sessionId, redactor } = options;
  const lock = await store.lock(sessionId, { ttlMs: options.lockTtlMs });
  if (lock === undefined) throw new SessionBusyError({ sessionId });
  let data: Awaited<ReturnType<SessionStore["load"]>>;
  try {
    data = await store.load(sessionId);
  } catch (error) {
    // The load error is the one to report; a failing release (the store is down) must not replace it.
    await lock.release().catch(() => undefined);
    throw error;
  }
  const state = new RunState(data?.state ?? {});
  const redact = (messages: readonly Message[]) =>
    redactor === undefined ? messages : messages.map((m) => redactor.redactMessage(m));
  return {
    history: data?.messages ?? [],
    state,
    persistence: ({ persistedCount, systemMessage }) => {
      let persisted = persistedCount;
      const saveState = async () => {
        if (!state.dirty) return;
        await store.saveState(sessionId, state.toJSON());
        state.markSaved();
      };
      return {
        flush: async (messages) => {
          if (messages.length > persisted) {
            await store.append(sessionId, redact(messages.slice(persisted)));
            persisted = messages.length;
          }
          await saveState();
        },
        replace: async (messages) => {
          const stored = messages[0] === systemMessage ? messages.slice(1) : messages;
          await store.replace(sessionId, redact(stored));
          persisted = messages.length;
          await saveState();
        },
      };
    },
    release: () => lock.release(),
  };
}
