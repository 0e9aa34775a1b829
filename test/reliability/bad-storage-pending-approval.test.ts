import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../src/agent.js";
import { validateHistory } from "../../src/context/validate-history.js";
import { InvalidArgumentError } from "../../src/errors/invalid-argument-error.js";
import { PENDING_APPROVALS_KEY } from "../../src/loop/agent-loop.js";
import { SUPERSEDED_CALL_RESULT } from "../../src/sessions/close-pending-calls.js";
import { FileStore } from "../../src/stores/file-store.js";
import { MemoryStore } from "../../src/stores/memory-store.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { tool } from "../../src/tools/tool.js";

// A session paused for approval, then a new message instead of a decision: the pending calls must be closed
// (every provider rejects a request with unanswered tool calls) and the pause must end.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentloop-pending-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const deleteFile = tool({
  name: "delete_file",
  description: "Deletes a file.",
  parameters: z.object({ path: z.string() }),
  needsApproval: true,
  execute: async () => {
    throw new Error("must not run");
  },
});

describe.each([
  ["MemoryStore", () => new MemoryStore()],
  ["FileStore", () => new FileStore({ dir })],
])("a new message on a session paused for approval (%s)", (_name, create) => {
  it("closes the pending calls as not executed, clears the pause, and the next request is valid", async () => {
    const store = create();
    const sessionId = `paused-${Math.random()}`;
    const pausing = new ScriptedModel([
      { toolCalls: [{ id: "call_rm", name: "delete_file", arguments: { path: "/etc/hosts" } }] },
    ]);
    const paused = await new Agent({ model: pausing, store, tools: [deleteFile] }).run("Delete it.", {
      sessionId,
    });
    expect(paused.stopReason).toBe("awaiting_approval");
    expect((await store.load(sessionId))?.state[PENDING_APPROVALS_KEY]).toBeDefined();

    const model = new ScriptedModel([{ text: "Fine, something else then." }]);
    const result = await new Agent({ model, store, tools: [deleteFile] }).run("Actually, never mind.", {
      sessionId,
    });
    expect(result.stopReason).toBe("completed");
    const sent = model.calls[0]!.request.messages;
    expect(validateHistory(sent)).toEqual([]);
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
    expect(sent[2]).toMatchObject({ role: "tool", toolCallId: "call_rm", content: SUPERSEDED_CALL_RESULT });

    const stored = await store.load(sessionId);
    expect(validateHistory(stored?.messages ?? [])).toEqual([]);
    expect(stored?.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user", "assistant"]);
    expect(stored?.state[PENDING_APPROVALS_KEY]).toBeUndefined();
    // Nothing is awaiting approval any more: a late decision is refused, the tool never runs.
    await expect(
      new Agent({ model: new ScriptedModel([]), store, tools: [deleteFile] }).resume(
        { sessionId },
        { approve: ["call_rm"] },
      ),
    ).rejects.toSatisfy(InvalidArgumentError.isInstance);
  });
});

describe("stored redaction and pending approvals", () => {
  const secret = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
  const sendKey = tool({
    name: "send_key",
    description: "Sends a key.",
    parameters: z.object({ key: z.string() }),
    needsApproval: true,
    execute: async () => "sent",
  });
  const pausingModel = () =>
    new ScriptedModel([{ toolCalls: [{ id: "call_key", name: "send_key", arguments: { key: secret } }] }]);

  it("by default, the stored conversation and pending approvals are kept as the model needs them", async () => {
    const storeDir = join(dir, "plain");
    const store = new FileStore({ dir: storeDir });
    await new Agent({ model: pausingModel(), store, tools: [sendKey] }).run(`my key is ${secret}`, {
      sessionId: "plain",
    });
    const model = new ScriptedModel([{ text: "ok" }]);
    await new Agent({ model, store }).run("go on", { sessionId: "plain" });
    // The next run's request carries the key as the user wrote it, not a redaction marker.
    expect(JSON.stringify(model.calls[0]!.request.messages)).toContain(`my key is ${secret}`);
    expect(JSON.stringify(model.calls[0]!.request.messages)).not.toContain("REDACTED");
  });

  it("with redact: true, pending approvals in the stored state are redacted too", async () => {
    const storeDir = join(dir, "redacted");
    const store = new FileStore({ dir: storeDir });
    const result = await new Agent({ model: pausingModel(), store, tools: [sendKey], redact: true }).run(
      `my key is ${secret}`,
      { sessionId: "redacted" },
    );
    expect(result.stopReason).toBe("awaiting_approval");
    expect(JSON.stringify(result.pendingApprovals)).toContain(secret); // the caller's result is not redacted
    const file = await readFile(join(storeDir, "redacted.jsonl"), "utf8");
    expect(file).not.toContain(secret);
    const state = (await store.load("redacted"))?.state[PENDING_APPROVALS_KEY];
    expect(JSON.stringify(state)).toContain("REDACTED");
  });
});
