import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../loop/agent-event.js";
import type { RunSummary } from "./summarize-run.js";
import { REPO_ROOT } from "./test-utils/ensure-cli-built.js";
import { runCli, startCli } from "./test-utils/run-cli.js";
import { linesOf, useCliTestEnv } from "./test-utils/use-cli-test-env.js";

// These tests run the built CLI (dist/cli/main.js) as a process, like a user would.

const { mockServer } = useCliTestEnv();
const oneLine = linesOf;

describe("agentloop help and usage", () => {
  it("--help prints the commands and the exit codes (exit 0)", async () => {
    const { code, stdout, stderr } = await runCli({ args: ["--help"] });
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('agentloop run "task" [options]');
    expect(stdout).toContain("130  aborted with Ctrl-C");
  });

  it("every command has --help", async () => {
    for (const [command, marker] of [
      ["run", "--max-cost <usd>"],
      ["replay", "Usage: agentloop replay"],
      ["trace", "Usage: agentloop trace show"],
    ] as const) {
      const { code, stdout, stderr } = await runCli({ args: [command, "--help"] });
      expect(code, stderr).toBe(0);
      expect(stdout).toContain(marker);
    }
  });

  it("--version prints the package version", async () => {
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    const { code, stdout, stderr } = await runCli({ args: ["--version"] });
    expect(code, stderr).toBe(0);
    expect(stdout.trim()).toBe(pkg.version);
  });

  it("an unknown command is a usage error (exit 2, one line on stderr)", async () => {
    const { code, stderr, stdout } = await runCli({ args: ["frobnicate"] });
    expect(code, stderr).toBe(2);
    expect(stdout).toBe("");
    expect(oneLine(stderr)).toEqual([
      'agentloop: error: unknown command "frobnicate" (see agentloop --help)',
    ]);
  });

  it("bad options, a missing task and unknown tools are usage errors (exit 2)", async () => {
    for (const args of [
      ["run"],
      ["run", "--bogus", "task"],
      ["run", "--tools", "calculator,teleport", "task"],
      ["run", "--max-turns", "0", "task"],
      ["run", "--max-cost", "cheap", "task"],
      ["replay"],
      ["trace", "list"],
      [],
    ]) {
      const { code, stderr } = await runCli({ args });
      expect(code, args.join(" ")).toBe(2);
      expect(stderr, args.join(" ")).toMatch(/agentloop: error: |Usage:/);
    }
  });
});

describe("agentloop run: configuration", () => {
  it("a missing OpenAI key is a configuration error naming OPENAI_API_KEY (exit 3)", async () => {
    const { code, stderr, stdout } = await runCli({ args: ["run", "hello"] });
    expect(code, stderr).toBe(3);
    expect(stdout).toBe("");
    const lines = oneLine(stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^agentloop: error: OPENAI_API_KEY is not set/);
  });

  it("a missing Anthropic key names ANTHROPIC_API_KEY (exit 3)", async () => {
    const { code, stderr } = await runCli({ args: ["run", "-m", "anthropic:claude-haiku-4-5", "hello"] });
    expect(code, stderr).toBe(3);
    expect(stderr).toMatch(/^agentloop: error: ANTHROPIC_API_KEY is not set/);
  });

  it("an OpenAI-compatible server needs no key (OPENAI_BASE_URL), but its model must be named", async () => {
    const { server } = await mockServer();
    const { code, stdout, stderr } = await runCli({
      args: ["run", "--quiet", "--model", "openai:local-llama", "hello"],
      env: { OPENAI_BASE_URL: server.url },
    });
    expect(code, stderr).toBe(0);
    expect(stdout).toBe("You said: hello\n");
    expect(server.requests[0]?.rawBody).toContain('"model":"local-llama"');
    // AGENTLOOP_MODEL works as well; the model has no price, and --json says so instead of OpenAI's rates.
    const fromEnv = await runCli({
      args: ["run", "--json", "hello"],
      env: { OPENAI_BASE_URL: server.url, AGENTLOOP_MODEL: "openai:local-llama" },
    });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    const summary = JSON.parse(fromEnv.stdout) as RunSummary;
    expect(summary).toMatchObject({
      model: "openai:local-llama",
      costUsd: 0,
      costUnknownModels: ["local-llama"],
    });
  });

  it("a custom OPENAI_BASE_URL without --model is a usage error naming the fix; nothing is sent (exit 2)", async () => {
    const { server } = await mockServer();
    const { code, stdout, stderr } = await runCli({
      args: ["run", "hello"],
      env: { OPENAI_BASE_URL: server.url },
    });
    expect(code, stderr).toBe(2);
    expect(stdout).toBe("");
    expect(oneLine(stderr)).toEqual([
      `agentloop: error: OPENAI_BASE_URL is set (${server.url}): name the model that server serves with --model openai:<model-id> (or AGENTLOOP_MODEL=openai:<model-id>); the server lists its models at ${server.url}/models`,
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it("--max-cost with a model that has no price is a usage error (exit 2)", async () => {
    const { server, env } = await mockServer();
    const { code, stderr } = await runCli({
      args: ["run", "-m", "openai:local-llama", "--max-cost", "1", "hello"],
      env,
    });
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(
      /^agentloop: error: --max-cost needs the model's price, and "openai:local-llama" is not/,
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe("agentloop run --demo", () => {
  it("with no task runs the demo task (and says so on stderr)", async () => {
    const { code, stdout, stderr } = await runCli({ args: ["run", "--demo"] });
    expect(code, stderr).toBe(0);
    expect(oneLine(stdout)[0]).toBe("▶ What is 17 * 23? · openai:gpt-4o-mini");
    expect(stdout).toContain("17 * 23 = 391.");
    expect(stderr).toContain('agentloop: no task given: running the demo task "What is 17 * 23?"');
  });

  it("--json prints one JSON object with the result (and says it is a demo on stderr)", async () => {
    const { code, stdout, stderr } = await runCli({ args: ["run", "--demo", "--json", "What is 17 * 23?"] });
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(stdout) as RunSummary;
    expect(summary.stopReason).toBe("completed");
    expect(summary.text).toContain("391");
    expect(summary.turns).toBe(2);
    expect(summary.toolCalls.map((call) => [call.name, call.result])).toEqual([["calculator", "391"]]);
    expect(summary.costUsd).toBeGreaterThan(0);
    expect(stderr).toMatch(/demo mode: .*mock OpenAI server/);
  });

  it("--stream --json prints JSON lines of events ending with loop_end", async () => {
    const { code, stdout, stderr } = await runCli({
      args: ["run", "--demo", "--stream", "--json", "What is 2 + 3?"],
    });
    expect(code, stderr).toBe(0);
    const events = oneLine(stdout).map((line) => JSON.parse(line) as AgentEvent);
    expect(events[0]?.type).toBe("loop_start");
    expect(events.some((e) => e.type === "text_delta")).toBe(true);
    expect(events.some((e) => e.type === "action" && e.data.toolName === "calculator")).toBe(true);
    const last = events.at(-1);
    expect(last?.type).toBe("loop_end");
    expect(last?.type === "loop_end" && last.data.stopReason).toBe("completed");
  });

  it("renders the run for people: task, model calls, tool calls, answer and totals", async () => {
    const { code, stdout, stderr } = await runCli({ args: ["run", "--demo", "What is 17 * 23?"] });
    expect(code, stderr).toBe(0);
    expect(stdout).not.toContain("\u001b["); // not a terminal
    const lines = oneLine(stdout);
    expect(lines[0]).toBe("▶ What is 17 * 23? · openai:gpt-4o-mini");
    expect(stdout).toMatch(
      /· turn 1: openai:gpt-4o-mini · \d+ ms · \d+ in \/ \d+ out tokens · \$0\.\d+ · tool_calls/,
    );
    expect(stdout).toContain('→ calculator({"expression":"17 * 23"})');
    expect(stdout).toMatch(/← calculator: 391 \(\d+ ms\)/);
    expect(stdout).toContain("17 * 23 = 391.");
    expect(lines.at(-1)).toMatch(
      /^■ completed · 2 turns · [\d,]+ tokens \([\d,]+ in \/ \d+ out\) · \$0\.\d+ · \d+/,
    );
  });

  it("FORCE_COLOR colours the output and NO_COLOR wins over it", async () => {
    const coloured = await runCli({ args: ["run", "--demo", "hi"], env: { FORCE_COLOR: "1" } });
    expect(coloured.stdout).toContain("\u001b[");
    const plain = await runCli({ args: ["run", "--demo", "hi"], env: { FORCE_COLOR: "1", NO_COLOR: "1" } });
    expect(plain.stdout).not.toContain("\u001b[");
  });

  it("a limit ends the run with exit 1 and one line saying which", async () => {
    const { code, stdout, stderr } = await runCli({
      args: ["run", "--demo", "--max-turns", "1", "What is 2 + 2?"],
    });
    expect(code, stderr).toBe(1);
    expect(oneLine(stdout).at(-1)).toMatch(/^■ max_turns · 1 turn/);
    expect(stderr).toContain(
      "agentloop: stopped (max_turns): the model-call limit was reached (raise it with --max-turns)",
    );
  });
});

describe("agentloop run: Ctrl-C", () => {
  it("aborts a streamed run cleanly: partial output kept, stop reason aborted, exit 130", async () => {
    const { env } = await mockServer({
      script: [
        {
          text: "one two three four five six seven eight nine ten",
          fault: { type: "slow_drip", intervalMs: 300 },
        },
      ],
      wordsPerEvent: 1,
    });
    const cli = startCli({ args: ["run", "Count"], env });
    await cli.waitFor(/one/);
    cli.child.kill("SIGINT");
    const { code, stdout, stderr } = await cli.done;
    expect(code, stderr).toBe(130);
    expect(stdout).toContain("one");
    expect(stdout).not.toContain("ten");
    expect(oneLine(stdout).at(-1)).toMatch(/^■ aborted/);
    expect(stderr).toContain("agentloop: aborting");
    expect(stderr).toContain("agentloop: aborted");
  });

  it("aborts while waiting for the model; --json reports stopReason aborted", async () => {
    const { server, env } = await mockServer({ script: [{ text: "too late", delayMs: 30_000 }] });
    const cli = startCli({ args: ["run", "--json", "wait for it"], env });
    await expect.poll(() => server.requests.length, { timeout: 10_000 }).toBeGreaterThan(0);
    cli.child.kill("SIGINT");
    const { code, stdout, stderr } = await cli.done;
    expect(code, stderr).toBe(130);
    expect((JSON.parse(stdout) as RunSummary).stopReason).toBe("aborted");
  });
});
