import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../loop/agent-event.js";
import { withDevServers, withTempDirs, writeAgentFile } from "./test-utils/dev-test-server.js";
import type { SseMessage } from "./test-utils/sse-messages.js";
import { testAgentSource } from "./test-utils/test-agent-source.js";

const tempDir = withTempDirs();
const startServer = withDevServers();

function events(messages: SseMessage[]): AgentEvent[] {
  return messages.filter((m) => m.event === "message").map((m) => JSON.parse(m.data) as AgentEvent);
}

function resultOf(messages: SseMessage[]): Record<string, unknown> {
  const result = messages.find((m) => m.event === "result");
  if (result === undefined) throw new Error(`no result in ${JSON.stringify(messages)}`);
  return JSON.parse(result.data) as Record<string, unknown>;
}

async function withAgent(source = testAgentSource()) {
  const cwd = await tempDir();
  const agentFile = await writeAgentFile(cwd, source);
  return { ...(await startServer({ cwd, agentFile })), agentFile };
}

describe("agentloop dev server: requests from elsewhere", () => {
  it("refuses API requests without the token, with a wrong one, another Host or another Origin", async () => {
    const { api, server } = await withAgent();
    expect((await api("/info")).status).toBe(200);
    expect((await api("/info", { token: null })).status).toBe(401);
    expect((await api("/info", { token: "x".repeat(32) })).status).toBe(401);
    expect((await api("/info", { headers: { origin: "https://evil.example" } })).status).toBe(403);
    expect((await api("/info", { headers: { origin: server.origin } })).status).toBe(200);
    // A DNS-rebinding page sends its own host name (fetch cannot set Host: use node:http).
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: "127.0.0.1", port: server.port, path: "/", headers: { host: `evil.example:${server.port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it("bounds request bodies and wants JSON", async () => {
    const { api } = await withAgent();
    const big = await api("/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ input: "x".repeat(2 * 1024 * 1024), sessionId: "s" }),
    });
    expect(big.status).toBe(413);
    const form = await api("/runs", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "input=hi&sessionId=s",
    });
    expect(form.status).toBe(415);
    const bad = await api("/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ input: "hi", sessionId: "../../etc" }),
    });
    expect(bad.status).toBe(400);
  });

  it("serves the built page with a strict Content-Security-Policy, without the token", async () => {
    const cwd = await tempDir();
    await writeFile(join(cwd, "index.html"), "<!doctype html><title>dev</title>");
    const { server } = await startServer({ cwd, uiDir: cwd });
    const page = await fetch(`${server.origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await page.text()).toContain("<title>dev</title>");
    expect((await fetch(`${server.origin}/../package.json`)).status).toBe(404);
    expect(server.url).toBe(`${server.origin}/#token=${server.token}`);
  });
});

describe("agentloop dev server: runs", () => {
  it("streams a run in the SSE wire format: events with ids, then the result; lists it afterwards", async () => {
    const { stream, api } = await withAgent();
    const { status, messages } = await stream("/runs", { input: "please add", sessionId: "s1" });
    expect(status).toBe(200);
    const list = events(messages);
    // Every event has an id (agentloop/web's: for Last-Event-ID), each its own.
    const ids = messages.filter((m) => m.event === "message").map((m) => m.id);
    expect(ids.every((id) => id !== undefined && id !== "")).toBe(true);
    expect(new Set(ids).size).toBe(list.length);
    expect(list.map((e) => e.type)).toEqual(expect.arrayContaining(["text_delta", "action", "observation"]));
    const action = list.find((e) => e.type === "action");
    expect(action?.data).toMatchObject({ toolName: "add", arguments: { a: 2, b: 3 } });
    const result = resultOf(messages);
    expect(result).toMatchObject({ stopReason: "completed", text: "echo: 5", sessionId: "s1", turns: 2 });
    expect(result.costUsd).toBeGreaterThan(0);
    expect(result).not.toHaveProperty("messages");

    const runs = (await (await api("/runs")).json()) as Array<Record<string, unknown>>;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      runId: result.runId,
      finished: true,
      input: "please add",
      sessionId: "s1",
    });
    const run = (await (await api(`/runs/${result.runId}`)).json()) as { events: AgentEvent[] };
    expect(run.events.map((e) => e.type)).toContain("observation");
    expect(run.events.some((e) => e.type === "text_delta")).toBe(false);
    const sessions = (await (await api("/sessions")).json()) as Array<{ sessionId: string }>;
    expect(sessions.map((s) => s.sessionId)).toEqual(["s1"]);
    const history = (await (await api("/sessions/s1")).json()) as Array<{ role: string; text: string }>;
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect((await api("/sessions/nope")).status).toBe(404);
  });

  it("pauses at a gated call and resumes with the decision (approve, then deny)", async () => {
    const { stream, api } = await withAgent();
    const first = await stream("/runs", { input: "save a note", sessionId: "s2" });
    const paused = resultOf(first.messages) as {
      stopReason: string;
      runId: string;
      pendingApprovals: Array<{ toolCallId: string; toolName: string }>;
    };
    expect(paused.stopReason).toBe("awaiting_approval");
    expect(paused.pendingApprovals.map((p) => p.toolName)).toEqual(["save_note"]);
    expect(events(first.messages).map((e) => e.type)).toContain("approval_requested");
    const listed = (await (await api("/runs")).json()) as Array<Record<string, unknown>>;
    expect(listed[0]).toMatchObject({
      runId: paused.runId,
      finished: false,
      stopReason: "awaiting_approval",
    });

    const resumed = await stream(`/runs/${paused.runId}/resume`, {
      approve: [paused.pendingApprovals[0]?.toolCallId],
    });
    const observation = events(resumed.messages).find((e) => e.type === "observation" && e.replayed !== true);
    expect(observation?.data).toMatchObject({ toolName: "save_note", ok: true, result: "saved milk" });
    expect(resultOf(resumed.messages)).toMatchObject({ stopReason: "completed", text: "echo: saved milk" });

    const second = await stream("/runs", { input: "another note", sessionId: "s2" });
    const again = resultOf(second.messages) as typeof paused;
    const denied = await stream(`/runs/${again.runId}/resume`, {
      deny: [again.pendingApprovals[0]?.toolCallId],
    });
    const refused = events(denied.messages).find((e) => e.type === "observation");
    expect(refused?.data).toMatchObject({ ok: false, error: { type: "ApprovalDenied" } });
  });

  it("saves each run part as a trace, opens it as a view and replays it without divergence", async () => {
    const { stream, api } = await withAgent();
    const paused = resultOf((await stream("/runs", { input: "save a note", sessionId: "t" })).messages);
    const pending = (paused.pendingApprovals as Array<{ toolCallId: string }>)[0]?.toolCallId;
    await stream(`/runs/${paused.runId}/resume`, { approve: [pending] });
    const files = (await (await api("/traces")).json()) as Array<{ name: string }>;
    expect(files.map((f) => f.name).sort()).toEqual([`${paused.runId}.2.jsonl`, `${paused.runId}.jsonl`]);
    const view = (await (await api(`/traces/${paused.runId}.jsonl`)).json()) as Record<string, unknown>;
    expect(view).toMatchObject({ input: "save a note", model: "scripted:scripted", verified: { ok: true } });
    expect((view.events as AgentEvent[]).map((e) => e.type)).toContain("model_call");
    for (const file of files) {
      const replayed = await api(`/traces/${file.name}/replay`, { method: "POST" });
      expect(replayed.status).toBe(200);
      const outcome = (await replayed.json()) as { divergence: unknown; result: { stopReason: string } };
      expect(outcome.divergence, file.name).toBeNull();
    }
    expect((await api("/traces/..%2Fsecret.jsonl")).status).toBe(404);
    expect((await api("/traces/missing.jsonl")).status).toBe(404);
  });

  it("refuses a second run of a busy session (event: error); a client that leaves detaches from its run", async () => {
    const { stream, api } = await withAgent(testAgentSource({ delayMs: 400 }));
    const controller = new AbortController();
    const first = await api("/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ input: "slow", sessionId: "busy" }),
      signal: controller.signal,
    });
    const runId = first.headers.get("x-agentloop-run-id");
    expect(runId).toMatch(/^run-/);
    const second = await stream("/runs", { input: "again", sessionId: "busy" });
    const error = second.messages.find((m) => m.event === "error");
    expect(JSON.parse(error?.data ?? "{}")).toMatchObject({ name: "SessionBusyError" });
    controller.abort();
    for (let i = 0; i < 100; i++) {
      const runs = (await (await api("/runs")).json()) as Array<{
        runId: string;
        finished: boolean;
        stopReason?: string;
      }>;
      const run = runs.find((r) => r.runId === runId);
      if (run?.finished) {
        expect(run.stopReason).toBe("completed");
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the detached run did not finish");
  });

  it("takes an uploaded trace into the traces directory; refuses a file that is no trace", async () => {
    const { stream, api, server } = await withAgent();
    const result = resultOf((await stream("/runs", { input: "hello", sessionId: "u" })).messages);
    const text = await (await import("node:fs/promises")).readFile(
      join(server.workspace.tracesDir, `${result.runId}.jsonl`),
      "utf8",
    );
    const post = (body: unknown) =>
      api("/traces", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const uploaded = await post({ text, filename: "../../my run.jsonl" });
    expect(uploaded.status).toBe(201);
    const view = (await uploaded.json()) as { name: string; verified: { ok: boolean } };
    expect(view.name).toMatch(/^upload-[a-z0-9]+-my-run\.jsonl$/);
    expect(view.verified.ok).toBe(true);
    const refused = await post({ text: "not a trace\n", filename: "x.jsonl" });
    expect(refused.status).toBe(422);
    expect((await readdir(server.workspace.tracesDir)).filter((n) => n.startsWith("upload-"))).toEqual([
      view.name,
    ]);
  });
});

describe("agentloop dev server: the agent file", () => {
  async function waitForVersion(
    api: (path: string) => Promise<Response>,
    check: (info: Record<string, unknown>) => boolean,
  ) {
    for (let i = 0; i < 100; i++) {
      const info = (await (await api("/info")).json()) as Record<string, unknown>;
      if (check(info)) return info;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the agent did not reload");
  }

  it("hot-reloads the file; a broken edit is reported and the last good agent keeps answering", async () => {
    const { stream, api, agentFile } = await withAgent(testAgentSource({ answer: "old" }));
    expect(resultOf((await stream("/runs", { input: "hi", sessionId: "h" })).messages).text).toBe(
      "old to hi",
    );
    await writeFile(agentFile, testAgentSource({ answer: "new" }));
    await waitForVersion(api, (info) => info.version === 2);
    expect(resultOf((await stream("/runs", { input: "hi", sessionId: "h2" })).messages).text).toBe(
      "new to hi",
    );

    await writeFile(agentFile, "export default {");
    const broken = await waitForVersion(api, (info) => info.error !== null);
    expect(broken).toMatchObject({ version: 2, agent: { name: "tester", model: "scripted:scripted" } });
    expect((broken.error as { message: string }).message).toMatch(/\S/);
    expect(resultOf((await stream("/runs", { input: "hi", sessionId: "h3" })).messages).text).toBe(
      "new to hi",
    );
  });

  it("starts with a broken file: the error is in /api/info, runs are refused (503) until it is fixed", async () => {
    const { stream, api, agentFile } = await withAgent("export const nothing = 1;\n");
    const info = (await (await api("/info")).json()) as Record<string, unknown>;
    expect(info).toMatchObject({ version: 0, agent: null, source: { kind: "file", file: agentFile } });
    expect((info.error as { message: string }).message).toContain("exports no agent");
    const refused = await stream("/runs", { input: "hi", sessionId: "b" });
    expect(refused.status).toBe(503);
    expect((await api("/runs")).status).toBe(503);
    await writeFile(agentFile, testAgentSource());
    await waitForVersion(api, (next) => next.version === 1 && next.error === null);
    expect(resultOf((await stream("/runs", { input: "hi", sessionId: "b" })).messages).text).toBe(
      "echo to hi",
    );
  });

  it("runs the demo agent without a file (no key): arithmetic through the calculator, a gated save_note", async () => {
    const cwd = await tempDir();
    const { stream, api } = await startServer({ cwd });
    const info = (await (await api("/info")).json()) as {
      source: { kind: string };
      agent: { tools: Array<{ name: string; needsApproval: unknown }> };
    };
    expect(info.source.kind).toBe("demo");
    expect(info.agent.tools).toContainEqual(
      expect.objectContaining({ name: "save_note", needsApproval: true }),
    );
    const sum = await stream("/runs", { input: "What is 17 * 23?", sessionId: "d" });
    expect(resultOf(sum.messages).text).toContain("391");
    const note = resultOf(
      (await stream("/runs", { input: "Save a note: buy milk", sessionId: "d" })).messages,
    );
    expect(note.stopReason).toBe("awaiting_approval");
    const id = (note.pendingApprovals as Array<{ toolCallId: string }>)[0]?.toolCallId;
    const done = await stream(`/runs/${note.runId}/resume`, { approve: [id] });
    expect(resultOf(done.messages).text).toBe("Done: saved note #1: buy milk");
  });
});
