import { DurableRunBusyError } from "../errors/durable-run-busy-error.js";
import { LockLostError } from "../errors/lock-lost-error.js";
import { keepLockAlive } from "../stores/keep-lock-alive.js";
import { DEFAULT_SESSION_LOCK_TTL_MS, type SessionLock } from "../stores/session-store.js";
import type { RunJournal } from "./run-journal.js";
import { toJournalError } from "./to-journal-error.js";

/** Runs being attempted in this process, per journal. */
const ACTIVE = new WeakMap<RunJournal, Set<string>>();

/** Options of {@link acquireRunLock}. */
export interface AcquireRunLockOptions {
  journal: RunJournal;
  runId: string;
  /** Called once when the lock is lost (it expired and another holder took it): the attempt must stop. */
  onLost: (error: LockLostError) => void;
}

/** A held run lock: {@link RunLock.lost} once it was lost; `release` is idempotent and never rejects. */
export interface RunLock {
  readonly lost: LockLostError | undefined;
  release(): Promise<void>;
}

/**
 * Takes a durable run's exclusive lock for one attempt: within this process (per journal object) and, when
 * the journal has `lock`, across processes, renewed every third of its lifetime until `release`. Rejects with
 * {@link DurableRunBusyError} while another attempt holds it, with `StoreError` when the journal fails.
 */
export async function acquireRunLock({ journal, runId, onLost }: AcquireRunLockOptions): Promise<RunLock> {
  let active = ACTIVE.get(journal);
  if (active === undefined) {
    active = new Set();
    ACTIVE.set(journal, active);
  }
  if (active.has(runId)) throw new DurableRunBusyError({ runId });
  active.add(runId);
  const free = () => active.delete(runId);
  if (journal.lock === undefined) return { lost: undefined, release: async () => void free() };
  const ttlMs = journal.lockTtlMs ?? DEFAULT_SESSION_LOCK_TTL_MS;
  let lock: SessionLock | undefined;
  try {
    lock = await journal.lock(runId, { ttlMs });
  } catch (error) {
    free();
    throw toJournalError({ error, journal: "RunJournal", operation: "lock", runId });
  }
  if (lock === undefined) {
    free();
    throw new DurableRunBusyError({ runId });
  }
  const held = lock;
  let lost: LockLostError | undefined;
  const heartbeat = keepLockAlive({
    lock: held,
    ttlMs,
    onLost: (cause) => {
      lost = new LockLostError({ resource: "run", id: runId, cause });
      onLost(lost);
    },
  });
  let released: Promise<void> | undefined;
  return {
    get lost() {
      return lost;
    },
    release: () => {
      released ??= (async () => {
        heartbeat.stop();
        // A failed release is harmless: the lock expires after its TTL.
        if (lost === undefined) await held.release().catch(() => undefined);
        free();
      })();
      return released;
    },
  };
}
