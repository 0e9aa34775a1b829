import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { CliError } from "../errors/cli-error.js";
import { startMockOpenAIServer } from "../testing/mock-openai-server.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { saveTrace } from "../trace/trace-file.js";
import { askApprovals } from "./ask-approvals.js";
import type { CliIo } from "./cli-io.js";
import { createRunView } from "./create-run-view.js";
import { DEMO_TASK, demoScript } from "./demo-script.js";
import { LineReader } from "./line-reader.js";
import { main } from "./main.js";
import { parseRunArgs } from "./parse-run-args.js";
import { chooseCliModel } from "./resolve-cli-model.js";

/** A writable that keeps the text. */
function sink(isTTY = false): { write(text: string): boolean; isTTY: boolean; text: string } {
  return {
    isTTY,
    text: "",
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
  };
}

/** An in-process {@link CliIo}: collected output, an ended stdin, a controllable Ctrl-C. */
function fakeIo(env: Record<string, string>, cwd: string, input: string | null = "") {
  const stdout = sink();
  const stderr = sink();
  const stdin = new PassThrough();
  if (input !== null) stdin.end(input);
  let interrupt: (() => void) | undefined;
  const exit = vi.fn();
  const io: CliIo = {
    stdout,
    stderr,
    stdin,
    env,
    cwd,
    onInterrupt(listener) {
      interrupt = listener;
      return () => {
        interrupt = undefined;
      };
    },
    exit,
  };
  return { io, stdout, stderr, exit, interrupt: () => interrupt?.() };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

describe("main (in process)", () => {
  it("a first Ctrl-C aborts the run, a second exits at once with 130", async () => {
    const server = await startMockOpenAIServer({ script: [{ text: "late", delayMs: 30_000 }] });
    const cwd = await mkdtemp(join(tmpdir(), "agentloop-run-"));
    cleanups.push(
      () => server.close(),
      () => rm(cwd, { recursive: true, force: true }),
    );
    const fake = fakeIo(
      { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", AGENTLOOP_MODEL: "openai:gpt-4o-mini" },
      cwd,
    );
    const running = main({ argv: ["run", "wait"], io: fake.io });
    await expect.poll(() => server.requests.length, { timeout: 10_000 }).toBeGreaterThan(0);
    fake.interrupt();
    fake.interrupt();
    expect(fake.exit).toHaveBeenCalledWith(130);
    expect(await running).toBe(130);
    expect(fake.stderr.text).toContain("press Ctrl-C again to exit at once");
    expect(fake.stdout.text).toMatch(/■ aborted/);
  });

  it("Ctrl-C at the approval prompt denies, aborts the run and returns 130", async () => {
    const server = await startMockOpenAIServer({
      script: [{ toolCalls: [{ name: "write_file", arguments: { path: "x.txt", content: "x" } }] }],
    });
    const cwd = await mkdtemp(join(tmpdir(), "agentloop-run-"));
    cleanups.push(
      () => server.close(),
      () => rm(cwd, { recursive: true, force: true }),
    );
    const fake = fakeIo(
      { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", AGENTLOOP_MODEL: "openai:gpt-4o-mini" },
      cwd,
      null,
    );
    const running = main({ argv: ["run", "-t", "write_file", "write x"], io: fake.io });
    await expect.poll(() => fake.stderr.text, { timeout: 10_000 }).toContain("[y/N] ");
    fake.interrupt();
    expect(await running).toBe(130);
    expect(fake.stderr.text).toMatch(/\[y\/N\] \nagentloop: aborting… .*\n\(aborted\)\nagentloop: aborted\n/);
    expect(fake.exit).not.toHaveBeenCalled();
    expect(server.requests).toHaveLength(1);
  });

  it("ask_user asks on stderr and sends the answer read from stdin", async () => {
    const server = await startMockOpenAIServer({
      script: [{ toolCalls: [{ name: "ask_user", arguments: { question: "Your name?" } }] }, { text: "Hi!" }],
    });
    const cwd = await mkdtemp(join(tmpdir(), "agentloop-run-"));
    cleanups.push(
      () => server.close(),
      () => rm(cwd, { recursive: true, force: true }),
    );
    const fake = fakeIo(
      { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", AGENTLOOP_MODEL: "openai:gpt-4o-mini" },
      cwd,
      "Ada\n",
    );
    expect(await main({ argv: ["run", "-t", "ask_user", "greet me"], io: fake.io })).toBe(0);
    expect(fake.stderr.text).toContain("? Your name?\n> Ada\n");
    expect(server.requests[1]?.rawBody).toContain('"content":"Ada"');
  });

  it("replays a trace recorded by library code (custom tools, a system prompt) without divergence", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "agentloop-run-"));
    cleanups.push(() => rm(cwd, { recursive: true, force: true }));
    const lookup = tool({
      name: "lookup",
      description: "Looks a word up",
      parameters: z.object({ word: z.string().min(1), lang: z.enum(["en", "fr"]).optional() }),
      execute: ({ word }) => ({ word, meaning: `the meaning of ${word}` }),
    });
    const agent = new Agent({
      model: new ScriptedModel([
        { text: "Looking it up.", toolCalls: [{ name: "lookup", arguments: { word: "loop" } }] },
        { text: "A loop repeats." },
      ]),
      tools: [lookup],
      system: "Be brief.",
      temperature: 0.2,
      trace: true,
    });
    const result = await agent.run("What is a loop?");
    if (result.trace === undefined) throw new Error("no trace");
    await saveTrace({ trace: result.trace, path: join(cwd, "lib.jsonl") });
    const fake = fakeIo({}, cwd);
    expect(await main({ argv: ["replay", "lib.jsonl"], io: fake.io })).toBe(0);
    expect(fake.stdout.text).toContain(
      "replaying lib.jsonl: scripted:scripted · tools lookup · 2 recorded model calls",
    );
    expect(fake.stdout.text).toContain("no divergence");
  });

  it("reports errors as one line and returns the exit code", async () => {
    const fake = fakeIo({}, tmpdir());
    expect(await main({ argv: ["run", "--max-turns", "x", "t"], io: fake.io })).toBe(2);
    expect(fake.stderr.text).toBe('agentloop: error: --max-turns expects a positive integer, got "x"\n');
  });
});

describe("parseRunArgs", () => {
  it("parses flags and joins the task", () => {
    const args = parseRunArgs({
      args: [
        "-m",
        "anthropic:claude-haiku-4-5",
        "--tools",
        "read_file, list_dir",
        "--max-cost",
        "0.5",
        "sum",
        "it",
      ],
    });
    expect(args).toMatchObject({
      task: "sum it",
      model: "anthropic:claude-haiku-4-5",
      tools: ["read_file", "list_dir"],
      maxCostUsd: 0.5,
      stream: true,
      json: false,
    });
  });

  it("streams by default except with --json; --tools none disables tools", () => {
    expect(parseRunArgs({ args: ["--json", "t"] }).stream).toBe(false);
    expect(parseRunArgs({ args: ["--json", "--stream", "t"] }).stream).toBe(true);
    expect(parseRunArgs({ args: ["--no-stream", "t"] }).stream).toBe(false);
    expect(parseRunArgs({ args: ["--tools", "none", "t"] }).tools).toEqual([]);
    expect(parseRunArgs({ args: ["t"] }).tools).toEqual(["calculator", "current_time"]);
  });

  it("rejects conflicting or invalid flags with usage errors", () => {
    expect(() => parseRunArgs({ args: ["--stream", "--no-stream", "t"] })).toThrow(/cannot be used together/);
    expect(() => parseRunArgs({ args: ["--json", "--quiet", "t"] })).toThrow(/cannot be used together/);
    expect(() => parseRunArgs({ args: ["--model", "gpt-4o", "t"] })).toThrow(/<provider>:<model-id>/);
    expect(() => parseRunArgs({ args: ["--max-turns", "1.5", "t"] })).toThrow(/positive integer/);
  });

  it("--demo without a task runs the demo task; without --demo a task is required", () => {
    expect(parseRunArgs({ args: ["--demo"] })).toMatchObject({ task: DEMO_TASK, demoTask: true, demo: true });
    expect(parseRunArgs({ args: ["--demo", "hi"] })).toMatchObject({ task: "hi", demoTask: false });
    expect(() => parseRunArgs({ args: [] })).toThrow(/missing task/);
  });
});

describe("chooseCliModel", () => {
  const choose = (args: readonly string[], env: Record<string, string> = {}) =>
    chooseCliModel({ ...parseRunArgs({ args: [...args, "t"] }), env });
  const local = { OPENAI_BASE_URL: "http://127.0.0.1:8080/v1" };

  it("requires a model for a custom OPENAI_BASE_URL, naming the fix (exit 2)", () => {
    let error: unknown;
    try {
      choose([], local);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(2);
    expect((error as CliError).message).toMatch(
      /OPENAI_BASE_URL is set \(http:\/\/127\.0\.0\.1:8080\/v1\): name the model .* --model openai:<model-id> .*AGENTLOOP_MODEL.*http:\/\/127\.0\.0\.1:8080\/v1\/models/,
    );
  });

  it("takes --model, then AGENTLOOP_MODEL, then the default (OpenAI's own URL or the demo need none)", () => {
    expect(choose(["-m", "openai:llama3.2"], local)).toBe("openai:llama3.2");
    expect(choose([], { ...local, AGENTLOOP_MODEL: "openai:qwen" })).toBe("openai:qwen");
    expect(choose([])).toBe("openai:gpt-4o-mini");
    expect(choose([], { OPENAI_BASE_URL: "https://api.openai.com/v1" })).toBe("openai:gpt-4o-mini");
    expect(choose(["--demo"], local)).toBe("openai:gpt-4o-mini");
    expect(() => choose([], { AGENTLOOP_MODEL: "llama" })).toThrow(
      /AGENTLOOP_MODEL expects "<provider>:<model-id>"/,
    );
  });
});

describe("demoScript", () => {
  const tools = [{ type: "function", function: { name: "calculator" } }];

  it("calls the calculator for arithmetic, then answers from the result", () => {
    const first = demoScript({
      model: "m",
      tools,
      messages: [{ role: "user", content: "What is 17 × 23?" }],
    });
    expect(first.toolCalls).toEqual([{ name: "calculator", arguments: { expression: "17 * 23" } }]);
    const second = demoScript({
      model: "m",
      tools,
      messages: [
        { role: "user", content: "What is 17 × 23?" },
        {
          role: "assistant",
          tool_calls: [{ function: { name: "calculator", arguments: '{"expression":"17 * 23"}' } }],
        },
        { role: "tool", content: "391" },
      ],
    });
    expect(second.text).toBe("17 * 23 = 391. (Worked out with the calculator tool.)");
  });

  it("echoes anything else", () => {
    const reply = demoScript({ model: "m", tools, messages: [{ role: "user", content: "hello" }] });
    expect(reply.text).toMatch(/^You said: "hello"/);
  });
});

describe("LineReader and askApprovals", () => {
  it("keeps lines that arrive before they are asked for", async () => {
    const input = new PassThrough();
    const reader = new LineReader({ input });
    input.end("y\r\nno\nlast");
    expect(await reader.readLine()).toBe("y");
    expect(await reader.readLine()).toBe("no");
    expect(await reader.readLine()).toBe("last");
    expect(await reader.readLine()).toBeUndefined();
  });

  it("stops waiting when aborted", async () => {
    const reader = new LineReader({ input: new PassThrough() });
    const controller = new AbortController();
    const pending = reader.readLine({ signal: controller.signal });
    controller.abort();
    expect(await pending).toBeUndefined();
    reader.close();
  });

  it("approves y/yes and denies anything else", async () => {
    const input = new PassThrough();
    input.end("YES\nnope\n");
    const stderr = sink();
    const calls = ["a", "b", "c"].map((id) => ({
      toolCallId: id,
      toolName: "write_file",
      arguments: { path: id },
    }));
    const answers = await askApprovals({
      calls,
      reader: new LineReader({ input }),
      stderr,
      yes: false,
      echo: true,
    });
    expect(answers).toEqual({ approve: ["a"], deny: ["b", "c"] });
    expect(stderr.text).toBe(
      '? approval needed: write_file (call a)\n    path: "a"\nAllow write_file? [y/N] YES\n' +
        '? approval needed: write_file (call b)\n    path: "b"\nAllow write_file? [y/N] nope\n' +
        '? approval needed: write_file (call c)\n    path: "c"\nAllow write_file? [y/N] (no answer: denied)\n',
    );
  });
});

describe("createRunView", () => {
  it("shows a spinner on a terminal stderr while waiting, and erases it before output", () => {
    vi.useFakeTimers();
    try {
      const stdout = sink();
      const stderr = sink(true);
      const view = createRunView({
        args: { json: false, stream: true, quiet: false, color: false, model: "openai:m" },
        io: { stdout, stderr, env: {} },
      });
      view.onEvent({ type: "loop_start", turn: 0, timestamp: 0, data: { task: "t", model: "openai:m" } });
      vi.advanceTimersByTime(200);
      expect(stderr.text).toContain("waiting for openai:m…");
      view.onEvent({
        type: "loop_end",
        turn: 0,
        timestamp: 1,
        data: { stopReason: "completed", text: "ok" },
      });
      expect(stderr.text.endsWith("\r\u001b[K")).toBe(true);
      expect(stdout.text).toContain("■ completed");
    } finally {
      vi.useRealTimers();
    }
  });

  it("draws no spinner when stderr is not a terminal", () => {
    const stderr = sink(false);
    const view = createRunView({
      args: { json: true, stream: false, quiet: false, color: undefined, model: "openai:m" },
      io: { stdout: sink(), stderr, env: {} },
    });
    view.onEvent({ type: "loop_start", turn: 0, timestamp: 0, data: { task: "t", model: "openai:m" } });
    view.pause();
    expect(stderr.text).toBe("");
  });
});
