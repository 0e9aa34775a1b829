import { describe, expect, it } from "vitest";
import { Agent } from "./agent.js";
import type { AgentEvent } from "./loop/agent-event.js";
import { ScriptedModel } from "./testing/scripted-model.js";

describe("AgentStream.abort", () => {
  it("aborts the run at once, during a silent model call (not at its next event)", async () => {
    const model = new ScriptedModel([{ text: "late", delayMs: 30_000 }]);
    const stream = new Agent({ model }).stream("hi");
    const events: AgentEvent[] = [];
    const reading = (async () => {
      for await (const event of stream) events.push(event);
    })();
    while (!events.some((e) => e.type === "turn_start"))
      await new Promise((resolve) => setTimeout(resolve, 5));
    const aborted = Date.now();
    stream.abort();
    const result = await stream.result;
    await reading;
    expect(result.stopReason).toBe("aborted");
    expect(Date.now() - aborted).toBeLessThan(1_000);
    expect(events.at(-1)).toMatchObject({ type: "loop_end", data: { stopReason: "aborted" } });
  });

  it("an unread stream aborted ends aborted; after the end it does nothing", async () => {
    const agent = new Agent({ model: new ScriptedModel(() => ({ text: "ok" })) });
    const unread = agent.stream("hi");
    unread.abort(new Error("not needed"));
    expect((await unread.result).stopReason).toBe("aborted");
    const done = agent.stream("hi");
    expect((await done.result).stopReason).toBe("completed");
    done.abort();
    expect((await done.result).stopReason).toBe("completed");
  });
});
