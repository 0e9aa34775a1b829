import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { UnsupportedRuntimeError } from "../errors/unsupported-runtime-error.js";
import { traceEvents } from "../trace/trace-events.js";
import { TraceRecorder } from "../trace/trace-recorder.js";
import { verifyTrace } from "../trace/verify-trace.js";
import { canSha256, loadSha256, sha256Hex } from "./sha256-hex.js";

const host = process as { getBuiltinModule?: unknown };
const original = host.getBuiltinModule;
afterEach(() => {
  host.getBuiltinModule = original;
});

const nodeHex = (text: string) => createHash("sha256").update(text).digest("hex");

// One test: the module keeps the hash it found (node:crypto or @noble/hashes) for the rest of the process.
describe("sha256Hex without node:crypto", () => {
  it("needs loadSha256 first, then hashes like node:crypto; a traced run awaits it", async () => {
    host.getBuiltinModule = undefined;
    expect(canSha256()).toBe(false);
    expect(() => sha256Hex("abc")).toThrow(UnsupportedRuntimeError);
    // Records added before SHA-256 is there wait, and are hashed in order once it is.
    const recorder = new TraceRecorder({ input: "hi ü", messages: [], model: "mock:m", tools: [] });
    async function* events() {
      yield { type: "loop_start" } as never;
      return { stopReason: "completed" };
    }
    const traced = traceEvents({ events: events(), recorder });
    let last: IteratorResult<unknown, { trace: unknown }>;
    do last = await traced.next();
    while (!last.done);
    const trace = last.value.trace as Parameters<typeof verifyTrace>[0];
    expect(canSha256()).toBe(true);
    for (const text of ["", "abc", "héllo wörld ✓ 😀", "x".repeat(100_000)]) {
      expect(sha256Hex(text)).toBe(nodeHex(text));
    }
    expect(trace.records.map((record) => record.kind)).toEqual(["meta", "event"]);
    host.getBuiltinModule = original;
    expect(verifyTrace(trace)).toEqual({ ok: true });
    await loadSha256();
  });
});
