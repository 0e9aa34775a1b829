// Approval inside a sub-agent, decided in ANOTHER PROCESS (issue #19, "Done when"), from the outside: the
// BUILT package in child processes (multi-agent-child.mjs), the real OpenAI Chat and Anthropic Messages
// clients against local servers speaking their wire formats (wire-mock-server.ts), and a FileJournal in a
// temporary directory as the run log both processes share. The servers answer each (agent, turn) once: a
// model call made again after the pause would get no answer and be listed.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import type * as Agentloop from "../../src/index.js";
import { scripted, startWireServer, type WireServer } from "./wire-mock-server.js";

const run = promisify(execFile);
const child = fileURLToPath(new URL("./multi-agent-child.mjs", import.meta.url));
const dist = new URL("../../dist/index.js", import.meta.url);
const { FileJournal } = (await import(dist.href)) as typeof Agentloop;

const PROMPTS = {
  lead: "You lead: research first, then have the post written and published.",
  researcher: "You research facts.",
  writer: "You write posts and publish them with the publish tool.",
};
const PRICING = {
  "gpt-4o-mini": { inputPerMTok: 1, outputPerMTok: 4 },
  "claude-sonnet-4-5": { inputPerMTok: 3, outputPerMTok: 15 },
  "claude-haiku-4-5": { inputPerMTok: 0.8, outputPerMTok: 4 },
};
const dir = mkdtempSync(join(tmpdir(), "agentloop-multi-agent-"));
const servers: WireServer[] = [];
let resumed: Summary | undefined;
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

interface Summary {
  stopReason: string;
  text: string;
  error?: string;
  pendingApprovals?: Array<{ toolCallId: string; toolName: string; arguments: unknown; agent?: string }>;
  usage: { inputTokens: number; outputTokens: number };
  costUsd: number;
  events: string[];
}

/** Runs one child process against the servers; resolves with its summary. */
async function processRun(env: Record<string, string>, urls: { openai: string; anthropic: string }) {
  const { stdout } = await run(process.execPath, [child], {
    env: {
      ...process.env,
      ...env,
      OPENAI_URL: urls.openai,
      ANTHROPIC_URL: urls.anthropic,
      JOURNAL_DIR: join(dir, "journal"),
      EFFECTS: join(dir, "effects.log"),
      PROMPTS: JSON.stringify(PROMPTS),
      PRICING: JSON.stringify(PRICING),
    },
    timeout: 15_000,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as Summary;
}

describe.skipIf(!existsSync(dist))(
  "a sub-agent's approval decided in another process (built package)",
  () => {
    it("pauses the whole durable run in process A; process B resumes it by id: publish once, no call repeated", async () => {
      const openaiScript = scripted({
        [PROMPTS.lead]: [
          {
            toolCalls: [{ id: "call_research", name: "research", arguments: { input: "Paris facts" } }],
            usage: { input: 100, output: 20 },
          },
          {
            toolCalls: [
              { id: "call_write", name: "write", arguments: { input: "A post: Paris, 2.1M people." } },
            ],
            usage: { input: 180, output: 30 },
          },
          { text: ["Published the post on Paris."], usage: { input: 240, output: 8 } },
        ],
      });
      const anthropicScript = scripted({
        [PROMPTS.researcher]: [{ text: ["Paris has about 2.1M people."], usage: { input: 50, output: 12 } }],
        [PROMPTS.writer]: [
          {
            toolCalls: [{ id: "toolu_publish", name: "publish", arguments: { title: "Paris, 2.1M" } }],
            usage: { input: 70, output: 25 },
          },
          { text: ["Done: published."], usage: { input: 110, output: 5 } },
        ],
      });
      const openai = await startWireServer({ wire: "openai", respond: openaiScript.respond });
      const anthropic = await startWireServer({ wire: "anthropic", respond: anthropicScript.respond });
      servers.push(openai, anthropic);
      const urls = { openai: openai.url, anthropic: anthropic.url };
      const asked = () => ({
        openai: openai.served.map((s) => `${s.model}#${s.turn}`),
        anthropic: anthropic.served.map((s) => `${s.model}#${s.turn}`),
      });

      const paused = await processRun({ MODE: "start", RUN_ID: "post-1" }, urls);
      expect(paused.error).toBeUndefined();
      expect(paused.stopReason).toBe("awaiting_approval");
      expect(paused.pendingApprovals).toEqual([
        {
          toolCallId: "toolu_publish",
          toolName: "publish",
          arguments: { title: "Paris, 2.1M" },
          agent: "lead/writer",
        },
      ]);
      expect(existsSync(join(dir, "effects.log"))).toBe(false); // publish did not run
      expect(asked()).toEqual({
        openai: ["gpt-4o-mini#0", "gpt-4o-mini#1"],
        anthropic: ["claude-sonnet-4-5#0", "claude-haiku-4-5#0"],
      });
      expect(paused.events).toContain("lead/writer:approval_requested");
      expect(paused.usage.inputTokens).toBe(100 + 180 + 50 + 70); // the lead's two calls and each sub-agent's
      // The sub-runs are durable in the lead's log, under <runId>/<turn>/<toolCallId>.
      const logged = (await new FileJournal({ dir: join(dir, "journal") }).list()).map((r) => r.runId).sort();
      expect(logged).toEqual(["post-1", "post-1/1/call_research", "post-1/2/call_write"]);

      const done = await processRun({ MODE: "resume", RUN_ID: "post-1", APPROVE: '["toolu_publish"]' }, urls);
      expect(done.error).toBeUndefined();
      expect(done.stopReason).toBe("completed");
      expect(done.text).toBe("Published the post on Paris.");
      const effects = readFileSync(join(dir, "effects.log"), "utf8").trim().split("\n");
      expect(effects).toHaveLength(1);
      expect(effects[0]).toMatch(/^published Paris, 2\.1M/);
      // Only the calls not answered before the pause were made: the writer's second turn, the lead's last.
      expect(asked()).toEqual({
        openai: ["gpt-4o-mini#0", "gpt-4o-mini#1", "gpt-4o-mini#2"],
        anthropic: ["claude-sonnet-4-5#0", "claude-haiku-4-5#0", "claude-haiku-4-5#1"],
      });
      expect([openaiScript.repeated, anthropicScript.repeated]).toEqual([[], []]);
      // The writer's next request carries publish's result; the lead's carries the writer's answer.
      expect(JSON.stringify(anthropic.served.at(-1)?.messages)).toContain('published \\"Paris, 2.1M\\"');
      const leadTools = (openai.served.at(-1)?.messages ?? []).filter((m) => m.role === "tool");
      expect(leadTools.map((m) => m.content)).toEqual(["Paris has about 2.1M people.", "Done: published."]);
      // In B, publish and what followed ran live, inside the writer; nothing before the pause ran again.
      const live = done.events.filter((e) => !e.endsWith(":replayed"));
      expect(done.events).toContain("lead/writer:model_call:replayed"); // its first turn, from the log
      expect(live).toContain("lead/writer:action");
      expect(live).toContain("lead/writer:observation");
      expect(live.filter((e) => e.startsWith("lead/researcher:"))).toEqual([]);
      resumed = done;
    }, 30_000);

    // A finished sub-agent call replays its journaled result without running again: its tool_result record keeps
    // what the sub-run spent, and the replay counts it as the caller's again (found by this test).
    it("the resumed result counts all six calls of the run, across both processes", () => {
      expect(resumed).toBeDefined();
      if (resumed === undefined) return;
      expect(resumed.usage.inputTokens).toBe(100 + 180 + 240 + 50 + 70 + 110);
      const calls = [
        ["gpt-4o-mini", 100, 20],
        ["gpt-4o-mini", 180, 30],
        ["gpt-4o-mini", 240, 8],
        ["claude-sonnet-4-5", 50, 12],
        ["claude-haiku-4-5", 70, 25],
        ["claude-haiku-4-5", 110, 5],
      ] as const;
      const price = ([model, input, output]: (typeof calls)[number]) =>
        (input * PRICING[model].inputPerMTok + output * PRICING[model].outputPerMTok) / 1e6;
      const cost = calls.reduce((sum, call) => sum + price(call), 0);
      expect(resumed.costUsd).toBeCloseTo(cost, 12);
    });
  },
);
