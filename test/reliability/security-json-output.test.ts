/**
 * Issue #15, security: what `--json` prints (the JSON-lines renderer's events, and the summary) goes through
 * the redactor, like traces and stored sessions: keys in tool results, arguments and model text never reach it.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/test-utils/run-cli.js";
import { useCliTestEnv } from "../../src/cli/test-utils/use-cli-test-env.js";
import type { AgentEvent } from "../../src/loop/agent-event.js";
import { createJsonLinesRenderer } from "../../src/render/json-lines-renderer.js";

const KEY = "sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34";
const GITHUB = `${"ghp"}_${"aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zaB3dE"}`;

function sink(): { write(text: string): void; text: string } {
  return {
    text: "",
    write(chunk: string) {
      this.text += chunk;
    },
  };
}

const at = { turn: 1, timestamp: 0 };
const events = [
  {
    type: "action",
    ...at,
    data: { toolCallId: "c", toolName: "http_get", arguments: { url: `https://x.test/?api_key=${KEY}` } },
  },
  {
    type: "observation",
    ...at,
    data: { toolCallId: "c", toolName: "t", result: `token ${GITHUB}`, ok: true, durationMs: 1 },
  },
  { type: "text_delta", ...at, data: { delta: `your key is ${KEY}` } },
  { type: "error", ...at, data: { name: "E", message: `401 for key ${KEY}`, fatal: true } },
] as AgentEvent[];

describe("createJsonLinesRenderer", () => {
  it("redacts every event by default", () => {
    const out = sink();
    const renderer = createJsonLinesRenderer({ stream: out });
    for (const event of events) renderer.handle(event);
    expect(out.text).not.toContain(KEY);
    expect(out.text).not.toContain(GITHUB);
    expect(out.text).toContain("[REDACTED:api_key]");
    expect(out.text).toContain("[REDACTED:github_token]");
    expect(
      out.text
        .trim()
        .split("\n")
        .map((line) => (JSON.parse(line) as AgentEvent).type),
    ).toEqual(events.map((event) => event.type));
  });

  it("rules see the redacted event; redactor: false opts out", () => {
    const out = sink();
    createJsonLinesRenderer({ stream: out })
      .onEvent("text_delta", (event) => `${event.data.delta}\n`)
      .handle(events[2] as AgentEvent);
    expect(out.text).toBe("your key is [REDACTED:api_key]\n");
    const raw = sink();
    createJsonLinesRenderer({ stream: raw, redactor: false }).handle(events[2] as AgentEvent);
    expect(raw.text).toContain(KEY);
  });
});

describe("agentloop run --json", () => {
  const { mockServer, workdir } = useCliTestEnv();

  it("prints no key, with --stream (events) and without (the summary)", async () => {
    for (const args of [["--json", "--stream"], ["--json"]]) {
      const cwd = await workdir("json-redact");
      await writeFile(join(cwd, "notes.txt"), `deploy key: ${KEY}\ngithub: ${GITHUB}\n`);
      const { env } = await mockServer({
        script: [
          { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] },
          { text: `The key is ${KEY}.` },
        ],
      });
      const { code, stdout, stderr } = await runCli({
        args: ["run", "-m", "openai:gpt-4o-mini", "--tools", "read_file", ...args, "Read my notes"],
        env,
        cwd,
      });
      expect(code, stderr).toBe(0);
      expect(stdout).not.toContain(KEY);
      expect(stdout).not.toContain(GITHUB);
      expect(stdout).toContain("[REDACTED:api_key]");
      for (const line of stdout.trim().split("\n")) JSON.parse(line);
    }
  });
});

describe("the new redaction rules and tool registration", () => {
  it("a description that talks about cookies or Basic auth is not mistaken for a secret", async () => {
    const { tool } = await import("../../src/tools/tool.js");
    const { ToolRegistry } = await import("../../src/tools/tool-registry.js");
    const prose = tool({
      name: "call_api",
      description:
        "Calls the API. Cookie: the session cookie is sent for you. Authorization: Basic auth is used.",
      parameters: { type: "object", properties: {} },
      execute: () => "ok",
    });
    expect(() => new ToolRegistry({ tools: [prose] })).not.toThrow();
    const leaky = tool({
      name: "call_api",
      description: `Calls the API with the token ${GITHUB}.`,
      parameters: { type: "object", properties: {} },
      execute: () => "ok",
    });
    expect(() => new ToolRegistry({ tools: [leaky] })).toThrow(/github_token/);
  });
});
