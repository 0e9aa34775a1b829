/**
 * Session and state stores: the interfaces, the core implementations (memory, files) and the redactor. The
 * Redis and PostgreSQL stores live in `agentloop/redis` and `agentloop/postgres`.
 */

export { StoreError } from "../errors/store-error.js";
export { FileStateStore, type FileStateStoreOptions } from "./file-state-store.js";
export { FileStore, type FileStoreOptions } from "./file-store.js";
export { MemoryStateStore } from "./memory-state-store.js";
export { MemoryStore, type MemoryStoreOptions } from "./memory-store.js";
export { DEFAULT_REDACTION_RULES, type RedactionRule } from "./redaction-rule.js";
export { createRedactor, type Redactor, type RedactorOptions } from "./redactor.js";
export {
  type AppendOptions,
  DEFAULT_SESSION_LOCK_TTL_MS,
  type JsonValue,
  SESSION_RECORD_VERSION,
  type SessionData,
  type SessionInfo,
  type SessionLock,
  type SessionRecord,
  type SessionStore,
  type StateStore,
} from "./session-store.js";
