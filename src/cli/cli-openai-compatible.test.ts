import { afterEach, describe, expect, it } from "vitest";
import { readChatFixture } from "../providers/openai/test-utils/compatible-fixtures.js";
import { type FixtureServer, startFixtureServer } from "../providers/openai/test-utils/fixture-server.js";
import { mistralToolCallId } from "../providers/openai-compatible/mistral-tool-call-ids.js";
import { demoScript } from "./demo-script.js";
import type { RunSummary } from "./summarize-run.js";
import { runCli } from "./test-utils/run-cli.js";
import { linesOf, useCliTestEnv } from "./test-utils/use-cli-test-env.js";

// `agentloop run --model <preset>:<id>` as a process: the preset's base URL and key variables point the built
// CLI at a local server speaking the Chat Completions wire format.

const { mockServer } = useCliTestEnv();

let fixtureServer: FixtureServer | undefined;
afterEach(async () => {
  await fixtureServer?.close();
  fixtureServer = undefined;
});

describe("agentloop run --model <preset>:<model-id>", () => {
  it("deepseek: DEEPSEEK_BASE_URL and DEEPSEEK_API_KEY; the answer is printed (exit 0)", async () => {
    const { server } = await mockServer();
    const { code, stdout, stderr } = await runCli({
      args: ["run", "--quiet", "--model", "deepseek:deepseek-chat", "hello"],
      env: { DEEPSEEK_BASE_URL: server.url, DEEPSEEK_API_KEY: "ds-key" },
    });
    expect(code, stderr).toBe(0);
    expect(stdout).toBe("You said: hello\n");
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer ds-key");
    expect(server.requests[0]?.body).toMatchObject({ model: "deepseek-chat" });
  });

  it("mistral: a streamed tool loop; no stream_options, tool-call ids in Mistral's form, the tool result goes back", async () => {
    const { server } = await mockServer({ script: demoScript });
    const { code, stdout, stderr } = await runCli({
      args: [
        "run",
        "--json",
        "--stream",
        "--tools",
        "calculator",
        "-m",
        "mistral:mistral-small-latest",
        "What is 17 * 23?",
      ],
      env: { MISTRAL_BASE_URL: server.url, MISTRAL_API_KEY: "m-key" },
    });
    expect(code, stderr).toBe(0);
    const events = linesOf(stdout).map(
      (line) => JSON.parse(line) as { type: string; data: Record<string, unknown> },
    );
    expect(events.at(-1)).toMatchObject({ type: "loop_end", data: { stopReason: "completed" } });
    expect(events.some((e) => e.type === "action" && e.data.toolName === "calculator")).toBe(true);
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      const body = request.body as Record<string, unknown>;
      expect(body.stream).toBe(true);
      expect("stream_options" in body).toBe(false);
    }
    const second = server.requests[1]?.body as { messages: Array<Record<string, unknown>> } | undefined;
    const messages = second?.messages ?? [];
    const calls = messages.find((m) => m.role === "assistant")?.tool_calls as
      | Array<{ id: string }>
      | undefined;
    const call = calls?.[0];
    const result = messages.find((m) => m.role === "tool");
    expect(call?.id).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(result).toMatchObject({ tool_call_id: call?.id, content: "391" });
    // The id the mock server gave (call_…) is what the run keeps; only the wire form changes.
    const action = events.find((e) => e.type === "action");
    expect(mistralToolCallId(String(action?.data.toolCallId))).toBe(call?.id);
  });

  it("azure: AZURE_OPENAI_ENDPOINT and AZURE_OPENAI_API_KEY; the v1 route with the api-key header", async () => {
    fixtureServer = await startFixtureServer({
      body: readChatFixture("nonstream-text.json"),
      contentType: "application/json",
    });
    const { code, stdout, stderr } = await runCli({
      args: ["run", "--json", "-m", "azure:my-gpt-4o", "hello"],
      env: {
        AZURE_OPENAI_ENDPOINT: fixtureServer.baseURL.replace(/\/v1$/, ""),
        AZURE_OPENAI_API_KEY: "az-key",
      },
    });
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(stdout) as RunSummary;
    expect(summary.stopReason).toBe("completed");
    expect(summary.text).toMatch(/^\*\*Holiday Name:\*\* Galaxy Day/);
    expect(fixtureServer.requests[0]?.url).toBe("/openai/v1/chat/completions");
    expect(fixtureServer.requests[0]?.headers["api-key"]).toBe("az-key");
    expect(fixtureServer.requests[0]?.body).toMatchObject({ model: "my-gpt-4o" });
  });

  it("ollama: a local server needs no key", async () => {
    const { server } = await mockServer();
    const { code, stdout, stderr } = await runCli({
      args: ["run", "--quiet", "-m", "ollama:llama3.2:3b", "hi"],
      env: { OLLAMA_BASE_URL: server.url },
    });
    expect(code, stderr).toBe(0);
    expect(stdout).toBe("You said: hi\n");
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expect(server.requests[0]?.body).toMatchObject({ model: "llama3.2:3b" });
  });

  it("configuration errors (exit 3): a hosted service's missing key, Azure's missing endpoint, a bad base URL", async () => {
    const cases: Array<[Record<string, string>, string[], RegExp]> = [
      [
        {},
        ["-m", "deepseek:deepseek-chat"],
        /^agentloop: error: DEEPSEEK_API_KEY is not set: export DEEPSEEK_API_KEY=/,
      ],
      [{}, ["-m", "azure:dep"], /^agentloop: error: AZURE_OPENAI_ENDPOINT is not set/],
      [
        { AZURE_OPENAI_ENDPOINT: "https://res.openai.azure.com" },
        ["-m", "azure:dep"],
        /^agentloop: error: AZURE_OPENAI_API_KEY is not set/,
      ],
      [
        { GROQ_BASE_URL: "ftp://x", GROQ_API_KEY: "k" },
        ["-m", "groq:llama"],
        /^agentloop: error: GROQ_BASE_URL must be an http\(s\) URL/,
      ],
    ];
    for (const [env, model, message] of cases) {
      const { code, stdout, stderr } = await runCli({ args: ["run", ...model, "hello"], env });
      expect(code, stderr).toBe(3);
      expect(stdout).toBe("");
      expect(linesOf(stderr)).toHaveLength(1);
      expect(stderr).toMatch(message);
    }
  });

  it("an unknown provider names the presets (exit 2)", async () => {
    const { code, stderr } = await runCli({ args: ["run", "-m", "acme:model", "hello"] });
    expect(code, stderr).toBe(2);
    expect(stderr).toContain('unknown provider "acme"');
    expect(stderr).toContain("deepseek:<id>");
  });
});
