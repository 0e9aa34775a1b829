import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DENIED_RESULT } from "../loop/tool-step.js";
import type { MockScript } from "../testing/mock-reply.js";
import { hashRecord } from "../trace/hash-record.js";
import { GENESIS_HASH, type TraceRecord } from "../trace/trace-types.js";
import { runCli } from "./test-utils/run-cli.js";
import { linesOf, useCliTestEnv } from "./test-utils/use-cli-test-env.js";

// The CLI as a process: approval prompts, sessions, traces (record, show, replay).

const { mockServer, workdir } = useCliTestEnv();
const oneLine = linesOf;

describe("agentloop run: approval", () => {
  const writeScript: MockScript = [
    { toolCalls: [{ name: "write_file", arguments: { path: "note.txt", content: "hello from the agent" } }] },
    { text: "I wrote note.txt." },
  ];

  it("asks before write_file and writes when the answer is y", async () => {
    const cwd = await workdir("approve-yes");
    const { server, env } = await mockServer({ script: writeScript });
    const { code, stdout, stderr } = await runCli({
      args: ["run", "--tools", "write_file,read_file", "Write a note"],
      env,
      cwd,
      stdin: "y\n",
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(
      /\? approval needed: write_file \(call [^)]+\)\n {4}path: "note\.txt"\n {4}content: "hello from the agent"\nAllow write_file\? \[y\/N\] y\n/,
    );
    expect(await readFile(join(cwd, "note.txt"), "utf8")).toBe("hello from the agent");
    expect(stdout).toContain("? approval needed: write_file(");
    expect(stdout).toContain("⏸ paused: awaiting approval");
    expect(stdout).toContain("I wrote note.txt.");
    expect(oneLine(stdout).at(-1)).toMatch(/^■ completed · 2 turns/);
    expect(server.requests).toHaveLength(2);
  });

  it("does not write when the answer is no (or stdin ends)", async () => {
    for (const stdin of ["n\n", ""]) {
      const cwd = await workdir("approve-no");
      const { server, env } = await mockServer({ script: writeScript });
      const { code, stderr } = await runCli({
        args: ["run", "--tools", "write_file", "Write a note"],
        env,
        cwd,
        stdin,
      });
      expect(code, stderr).toBe(0);
      expect(stderr).toMatch(stdin === "" ? /\[y\/N\] \(no answer: denied\)/ : /\[y\/N\] n\n/);
      await expect(readFile(join(cwd, "note.txt"), "utf8")).rejects.toThrow(/ENOENT/);
      expect(server.requests[1]?.rawBody).toContain(DENIED_RESULT);
    }
  });

  it("shows the whole call before asking: the path after a 10,000-character field comes first", async () => {
    const hidden = `${"A".repeat(10_000)}TAIL-PAYLOAD`;
    const cwd = await workdir("approve-long");
    const { env } = await mockServer({
      script: [
        { toolCalls: [{ name: "write_file", arguments: { content: hidden, path: "deep/target.txt" } }] },
        { text: "done" },
      ],
    });
    const { code, stderr } = await runCli({
      args: ["run", "-m", "openai:gpt-4o-mini", "--tools", "write_file", "Write it"],
      env,
      cwd,
      stdin: "v\nn\n",
    });
    expect(code, stderr).toBe(0);
    const path = stderr.indexOf('    path: "deep/target.txt"');
    const content = stderr.indexOf('    content: "AAAA');
    const question = stderr.indexOf("Allow write_file? [y/N/v] ");
    expect(path).toBeGreaterThan(-1);
    expect(path).toBeLessThan(content); // where it writes comes first, whatever the model's order
    expect(content).toBeLessThan(question);
    expect(stderr.slice(content, question)).toMatch(/folded: 10,012 chars in all; answer v to view/);
    // "v" prints every value whole (the tail included), then asks again; "n" denies.
    const view = stderr.slice(question);
    expect(view).toContain("--- content (10,012 chars) ---\n  | AAAA");
    expect(view).toContain("TAIL-PAYLOAD\n--- end of content ---");
    expect(view).toMatch(/--- end of path ---\nAllow write_file\? \[y\/N\/v\] n\n/);
    await expect(readFile(join(cwd, "deep", "target.txt"), "utf8")).rejects.toThrow(/ENOENT/);
  });

  it("--yes approves without asking", async () => {
    const cwd = await workdir("approve-flag");
    const { env } = await mockServer({ script: writeScript });
    const { code, stderr } = await runCli({
      args: ["run", "--yes", "-t", "write_file", "Write a note"],
      env,
      cwd,
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain("[y/N] y (--yes)");
    expect(await readFile(join(cwd, "note.txt"), "utf8")).toBe("hello from the agent");
  });
});

describe("agentloop run: safe defaults of the network and file tools", () => {
  it("http_get asks first without --allow-net; read_file refuses .env", async () => {
    const cwd = await workdir("safe-defaults");
    await writeFile(join(cwd, ".env"), "OPENAI_API_KEY=sk-secret-in-dotenv\n");
    const { server, env } = await mockServer({
      script: [
        {
          toolCalls: [
            { name: "read_file", arguments: { path: ".env" } },
            { name: "http_get", arguments: { url: "http://169.254.169.254/latest/meta-data/" } },
          ],
        },
        { text: "done" },
      ],
    });
    const { code, stdout, stderr } = await runCli({
      args: ["run", "-m", "openai:gpt-4o-mini", "--tools", "read_file,http_get", "Leak it"],
      env,
      cwd,
      stdin: "",
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain("Allow http_get? [y/N] (no answer: denied)");
    expect(stdout).toMatch(/✗ read_file failed: .*may hold secrets/);
    const sent = server.requests[1]?.rawBody ?? "";
    expect(sent).not.toContain("sk-secret-in-dotenv");
    expect(sent).toContain(DENIED_RESULT);
  });

  it("--allow-net lets http_get fetch only the listed hosts, without asking", async () => {
    const cwd = await workdir("allow-net");
    const { env } = await mockServer({
      script: [
        { toolCalls: [{ name: "http_get", arguments: { url: "http://127.0.0.1:9/x" } }] },
        { text: "done" },
      ],
    });
    const { code, stdout, stderr } = await runCli({
      args: ["run", "-m", "openai:gpt-4o-mini", "--tools", "http_get", "--allow-net", "example.com", "Fetch"],
      env,
      cwd,
    });
    expect(code, stderr).toBe(0);
    expect(stderr).not.toContain("Allow http_get");
    expect(stdout).toMatch(
      /✗ http_get failed: .*Refused http:\/\/127\.0\.0\.1:9\/x: the host "127\.0\.0\.1" is not on the allowlist/,
    );
    const usage = await runCli({ args: ["run", "--allow-net", " , ", "x"], env, cwd });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--allow-net expects host names/);
  });
});

describe("agentloop run --session", () => {
  it("continues a stored session", async () => {
    const cwd = await workdir("session");
    const { server, env } = await mockServer();
    expect((await runCli({ args: ["run", "--session", "s1", "-q", "first"], env, cwd })).code).toBe(0);
    const second = await runCli({ args: ["run", "--session", "s1", "-q", "second"], env, cwd });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe("You said: second\n");
    expect(server.requests[1]?.rawBody).toContain("You said: first");
  });
});

describe("agentloop trace show and replay", () => {
  it("shows a trace saved by agentloop 0.1 (events with step, tool calls with tool / args) in the current shape", async () => {
    const cwd = await workdir("trace-0.1");
    const fixture = new URL("../trace/test-utils/trace-0.1.jsonl", import.meta.url);
    await writeFile(join(cwd, "old.jsonl"), await readFile(fixture, "utf8"));
    const show = await runCli({ args: ["trace", "show", "old.jsonl"], cwd });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/turn 1\s+action\s+get_weather\(\{"city":"Paris"\}\)/);
    expect(show.stdout).toMatch(/turn 2\s+observation\s+get_weather ok/);
    expect(show.stdout).toMatch(/tool_result\s+get_weather ok/);
    expect(show.stdout).not.toMatch(/undefined/);
    expect(oneLine(show.stdout).at(-1)).toBe("verified: ok");
  });

  it("records a run, shows its timeline and replays it without divergence", async () => {
    const cwd = await workdir("trace");
    const run = await runCli({ args: ["run", "--demo", "--trace", "out.jsonl", "What is 17 * 23?"], cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("agentloop: trace saved to out.jsonl");

    const show = await runCli({ args: ["trace", "show", "out.jsonl"], cwd });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/#0\s+meta\s+openai:gpt-4o-mini · tools calculator, current_time/);
    expect(show.stdout).toMatch(/turn 1\s+action\s+calculator\(\{"expression":"17 \* 23"\}\)/);
    expect(show.stdout).toMatch(/turn 1\s+observation\s+calculator ok · \d+ ms · "391"/);
    expect(show.stdout).toMatch(/call 0\s+model_response .* · \d+ in \/ \d+ out tokens · tool_calls/);
    expect(show.stdout).toMatch(/turn 2\s+loop_end\s+completed/);
    expect(oneLine(show.stdout).at(-1)).toBe("verified: ok");

    const replay = await runCli({ args: ["replay", "out.jsonl"], cwd });
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toContain("replayed: completed · 2 model calls · 1 tool call");
    expect(oneLine(replay.stdout).at(-1)).toBe("no divergence");
  });

  it("reports a tampered trace (exit 1) and a divergence (exit 1)", async () => {
    const cwd = await workdir("trace-broken");
    expect(
      (await runCli({ args: ["run", "--demo", "--trace", "t.jsonl", "What is 2 * 21?"], cwd })).code,
    ).toBe(0);
    const [header, ...lines] = oneLine(await readFile(join(cwd, "t.jsonl"), "utf8"));
    const records = lines.map((line) => JSON.parse(line) as TraceRecord);

    // Tampered: a changed tool result without a new hash.
    const tampered = records.map((record) =>
      record.kind === "tool_result" ? { ...record, data: { ...record.data, result: "41" } } : record,
    );
    await writeFile(
      join(cwd, "tampered.jsonl"),
      `${[header, ...tampered.map((r) => JSON.stringify(r))].join("\n")}\n`,
    );
    const show = await runCli({ args: ["trace", "show", "tampered.jsonl"], cwd });
    expect(show.code, show.stderr).toBe(1);
    expect(oneLine(show.stdout).at(-1)).toMatch(/^verified: broken at record \d+: hash mismatch/);
    const broken = await runCli({ args: ["replay", "tampered.jsonl"], cwd });
    expect(broken.code, broken.stderr).toBe(1);
    expect(broken.stderr).toMatch(/^agentloop: error: tampered\.jsonl is broken at record \d+/);

    // Rewritten with a valid chain: the last answer differs from the recorded loop_end text.
    let prevHash = GENESIS_HASH;
    const rewritten = records.map((record) => {
      const data =
        record.kind === "model_response" && record.data.call === 1
          ? { ...record.data, response: { ...record.data.response, text: "something else" } }
          : record.data;
      const hash = hashRecord({ seq: record.seq, kind: record.kind, data, prevHash } as Parameters<
        typeof hashRecord
      >[0]);
      const next = { ...record, data, prevHash, hash } as TraceRecord;
      prevHash = hash;
      return next;
    });
    await writeFile(
      join(cwd, "edited.jsonl"),
      `${[header, ...rewritten.map((r) => JSON.stringify(r))].join("\n")}\n`,
    );
    const diverged = await runCli({ args: ["replay", "edited.jsonl"], cwd });
    expect(diverged.code, diverged.stderr).toBe(1);
    expect(diverged.stdout).toContain("divergence at model call 1, at result.text");
    expect(diverged.stdout).toContain("actual:   something else");

    const missing = await runCli({ args: ["replay", "nope.jsonl"], cwd });
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.stderr).toBe("agentloop: error: cannot read nope.jsonl: no such file\n");
  });

  it("records both parts of a run paused for approval; each replays without divergence", async () => {
    const cwd = await workdir("trace-approval");
    const { env } = await mockServer({
      script: [
        { toolCalls: [{ name: "write_file", arguments: { path: "a.txt", content: "A" } }] },
        { text: "Done." },
      ],
    });
    const run = await runCli({
      args: ["run", "-t", "write_file", "--trace", "run.jsonl", "Write a"],
      env,
      cwd,
      stdin: "y\n",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("trace saved to run.jsonl, run.2.jsonl");
    for (const file of ["run.jsonl", "run.2.jsonl"]) {
      const replay = await runCli({ args: ["replay", file], cwd });
      expect(replay.stdout, file).toContain("no divergence");
      expect(replay.code, file).toBe(0);
    }
  });
});
