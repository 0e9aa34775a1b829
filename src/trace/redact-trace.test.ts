import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { createRedactor } from "../stores/redactor.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { redactTrace } from "./redact-trace.js";
import { replay } from "./replay.js";
import { loadTrace, saveTrace } from "./trace-file.js";
import { verifyTrace } from "./verify-trace.js";

const USER_KEY = "sk-proj-UserPastedKey0123456789abcdefABCDEF";
const DB_PASSWORD = "hunter2-very-secret";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentloop-redact-trace-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A traced run whose input, tool result and model answer all carry secrets. */
async function secretRun() {
  const config = tool({
    name: "read_config",
    description: "Reads the service configuration",
    parameters: z.object({}),
    execute: () => `db_host=10.0.0.5 password=${DB_PASSWORD}`,
  });
  const steps = [
    { toolCalls: [{ id: "c1", name: "read_config", arguments: {} }] },
    { text: `Your key ${USER_KEY} works; write to ops@example.com.` },
  ];
  const agent = new Agent({ model: new ScriptedModel(steps), tools: [config], trace: true });
  const result = await agent.run(`Check my key ${USER_KEY} against the config.`);
  return { trace: result.trace!, config, steps };
}

describe("saveTrace redacts by default", () => {
  it("writes no secret from the input, a tool result or the model's answer; the file verifies and replays", async () => {
    const { trace, config, steps } = await secretRun();
    expect(JSON.stringify(trace)).toContain(USER_KEY); // the run itself keeps them
    const path = join(dir, "redacted.jsonl");
    await saveTrace({ trace, path });
    const text = await readFile(path, "utf8");
    expect(text).not.toContain(USER_KEY);
    expect(text).not.toContain(DB_PASSWORD);
    expect(text).not.toContain("ops@example.com");
    expect(text).toContain("[REDACTED:api_key]");

    const loaded = await loadTrace(path);
    expect(verifyTrace(loaded)).toEqual({ ok: true });
    const agent = new Agent({ model: new ScriptedModel(steps), tools: [config] });
    const { divergence, result } = await replay(loaded, { agent });
    expect(divergence).toBeNull();
    expect(result.stopReason).toBe("completed");
  });

  it("writes the trace as recorded with redact: false, and with a custom redactor's rules", async () => {
    const { trace } = await secretRun();
    const raw = join(dir, "raw.jsonl");
    await saveTrace({ trace, path: raw, redact: false });
    expect(await readFile(raw, "utf8")).toContain(USER_KEY);
    const custom = join(dir, "custom.jsonl");
    await saveTrace({ trace, path: custom, redact: createRedactor({ patterns: [/10\.0\.0\.\d+/] }) });
    const text = await readFile(custom, "utf8");
    expect(text).not.toContain("10.0.0.5");
    expect(text).not.toContain(USER_KEY);
  });

  it("redactTrace leaves the original untouched and re-chains the hashes", async () => {
    const { trace } = await secretRun();
    const before = JSON.stringify(trace);
    const redacted = redactTrace({ trace, redactor: createRedactor() });
    expect(JSON.stringify(trace)).toBe(before);
    expect(verifyTrace(redacted)).toEqual({ ok: true });
    expect(redacted.records.at(-1)?.hash).not.toBe(trace.records.at(-1)?.hash);
  });
});
