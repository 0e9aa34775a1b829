import { afterAll, describe, expect, it } from "vitest";
import { Agent } from "../../agent.js";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { ScriptedModel } from "../../testing/scripted-model.js";
import { type McpToolSet, mcpTools } from "./mcp-tools.js";
import { everythingChildren, everythingStdio } from "./test-utils/everything-server.js";
import { findTool, toolMessages } from "./test-utils/mcp-test-helpers.js";

// MCP tools can be gated like any other tool: a gated call pauses the run, runs only once approved, and a
// denied one never reaches the server (the real server-everything over stdio).

const sets: McpToolSet[] = [];
afterAll(async () => {
  await Promise.all(sets.map((set) => set.close()));
  expect(everythingChildren()).toEqual([]);
});

describe("mcpTools({ needsApproval })", () => {
  it("gates the named tools only; the run pauses, then runs the approved call on the server", async () => {
    const set = await mcpTools({ ...everythingStdio(), prefix: "e_", needsApproval: ["echo"] });
    sets.push(set);
    expect(findTool(set, "e_echo").needsApproval).toBe(true);
    expect(findTool(set, "e_get-sum").needsApproval).toBe(false);
    const model = new ScriptedModel([
      { toolCalls: [{ id: "c1", name: "e_echo", arguments: { message: "hi there" } }] },
      { text: "done" },
    ]);
    const agent = new Agent({ model, tools: set.tools });
    const paused = await agent.run("echo it");
    expect(paused.stopReason).toBe("awaiting_approval");
    expect(paused.pendingApprovals?.map((p) => p.toolCallId)).toEqual(["c1"]);
    expect(model.calls).toHaveLength(1);
    const resumed = await agent.resume(paused, { approve: ["c1"] });
    expect(resumed.stopReason).toBe("completed");
    expect(toolMessages(model, 1).map((m) => m.content)).toEqual([expect.stringContaining("hi there")]);
  });

  it("a denied call never reaches the server; `true` gates every tool", async () => {
    const set = await mcpTools({ ...everythingStdio(), needsApproval: true });
    sets.push(set);
    expect(set.tools.every((t) => t.needsApproval === true)).toBe(true);
    const model = new ScriptedModel([
      { toolCalls: [{ id: "c1", name: "echo", arguments: { message: "secret plan" } }] },
      { text: "ok" },
    ]);
    const agent = new Agent({ model, tools: set.tools });
    const paused = await agent.run("echo it");
    const resumed = await agent.resume(paused, { deny: ["c1"] });
    expect(resumed.stopReason).toBe("completed");
    const [result] = toolMessages(model, 1);
    expect(result?.content).not.toContain("secret plan");
  });

  it("refuses a name the server does not list (a typo must not leave a tool ungated), stopping the server", async () => {
    const before = everythingChildren().length;
    const error = await mcpTools({ ...everythingStdio(), needsApproval: ["ecoh"] }).catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('"ecoh"');
    expect(everythingChildren().length).toBe(before);
    await expect(mcpTools({ ...everythingStdio(), needsApproval: "all" as never })).rejects.toThrow(
      /needsApproval/,
    );
  });
});
