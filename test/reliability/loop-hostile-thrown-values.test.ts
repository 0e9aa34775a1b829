import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Agent, type AgentOptions } from "../../src/agent.js";
import { SessionBusyError } from "../../src/errors/session-busy-error.js";
import { ThrownValueError } from "../../src/errors/thrown-value-error.js";
import type { AgentResult } from "../../src/loop/agent-result.js";
import { Renderer } from "../../src/render/renderer.js";
import { FileStore } from "../../src/stores/file-store.js";
import { MemoryStore } from "../../src/stores/memory-store.js";
import type { SessionStore } from "../../src/stores/session-store.js";
import { ScriptedModel } from "../../src/testing/scripted-model.js";
import type { ScriptedStep } from "../../src/testing/scripted-step.js";
import { tool } from "../../src/tools/tool.js";
import { EVERY_TRAP, errorWithThrowingGetters, trap } from "../../src/util/test-utils/hostile-values.js";

// Every boundary where foreign code runs (tool, hook, renderer, model) × every value that cannot be handled
// naively, in run and stream, with a session: the run ends normally (tool error, non-fatal error event, or
// stop reason "error" with a real error), the session lock is released, and no rejection goes unhandled.

/** Fresh hostile values (each test gets its own). */
const HOSTILE: Record<string, () => unknown> = {
  "object without prototype": () => Object.create(null),
  BigInt: () => 10n,
  Symbol: () => Symbol("hostile"),
  "circular object with a throwing toString": () => {
    const value: Record<string, unknown> = { toString: trap };
    value.self = value;
    return value;
  },
  "object whose toString throws": () => ({ toString: trap, valueOf: trap }),
  "Error whose message, name and stack getters throw": () => errorWithThrowingGetters(),
  "thenable whose then getter throws": () =>
    // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point of this case
    Object.defineProperty({}, "then", { get: trap, enumerable: true }),
  "Proxy whose every trap throws": () => new Proxy({}, EVERY_TRAP),
};

type Mode = "run" | "stream";

interface Boundary {
  /** Agent options and model steps that make the boundary throw `value`. */
  setup(value: () => unknown): { options: Partial<AgentOptions>; steps: ScriptedStep[] };
  check(result: AgentResult): void;
}

const callTool: ScriptedStep = { toolCalls: [{ id: "c1", name: "boom", arguments: {} }] };
const answer: ScriptedStep = { text: "done" };

const completedWithToolError = (result: AgentResult) => {
  expect(result.stopReason).toBe("completed");
  expect(result.toolCalls[0]).toMatchObject({ name: "boom", ok: false });
  expect(result.toolCalls[0]?.result).toMatch(/^Tool "boom" failed: /);
};
const completedWithHookError = (result: AgentResult) => {
  expect(result.stopReason).toBe("completed");
  const errors = result.events.filter((e) => e.type === "error");
  expect(errors.filter((e) => e.data.name === "HookError").length).toBeGreaterThan(0);
  for (const e of errors) expect(e.data).toMatchObject({ fatal: false });
  expect(result.events.at(-1)?.type).toBe("loop_end");
};
const endedWithError = (result: AgentResult) => {
  expect(result.stopReason).toBe("error");
  expect(result.error).toBeInstanceOf(Error);
  expect(ThrownValueError.isInstance(result.error) || typeof result.error?.message === "string").toBe(true);
  expect(result.events.at(-1)?.type).toBe("loop_end");
  expect(result.events.filter((e) => e.type === "error").at(-1)?.data).toMatchObject({ fatal: true });
};

const BOUNDARIES: Record<string, Boundary> = {
  "tool throws": {
    setup: (value) => ({
      options: {
        tools: [
          tool({
            name: "boom",
            description: "fails",
            parameters: { type: "object", properties: {} },
            execute: () => {
              throw value();
            },
          }),
        ],
      },
      steps: [callTool, answer],
    }),
    check: completedWithToolError,
  },
  "tool rejects": {
    setup: (value) => ({
      options: {
        tools: [
          tool({
            name: "boom",
            description: "fails",
            parameters: { type: "object", properties: {} },
            execute: () => Promise.reject(value()),
          }),
        ],
      },
      steps: [callTool, answer],
    }),
    check: completedWithToolError,
  },
  "tool returns it": {
    setup: (value) => ({
      options: {
        tools: [
          tool({
            name: "boom",
            description: "returns a hostile value",
            parameters: { type: "object", properties: {} },
            execute: () => value(),
          }),
        ],
      },
      steps: [callTool, answer],
    }),
    // Some of these values are fine results ("{}" for an object without prototype): only no crash is required.
    check: (result) => {
      expect(result.stopReason).toBe("completed");
      expect(typeof result.toolCalls[0]?.result).toBe("string");
    },
  },
  "onEvent hook throws": {
    setup: (value) => ({
      options: {
        onEvent: () => {
          throw value();
        },
      },
      steps: [answer],
    }),
    check: completedWithHookError,
  },
  "onToolEnd hook rejects": {
    setup: (value) => ({
      options: {
        tools: [
          tool({
            name: "ok",
            description: "ok",
            parameters: { type: "object", properties: {} },
            execute: () => 1,
          }),
        ],
        onToolEnd: () => Promise.reject(value()),
      },
      steps: [{ toolCalls: [{ id: "c1", name: "ok", arguments: {} }] }, answer],
    }),
    check: completedWithHookError,
  },
  "onEvent hook returns it": {
    setup: (value) => ({ options: { onEvent: () => value() as undefined }, steps: [answer] }),
    check: (result) => {
      expect(result.stopReason).toBe("completed");
      for (const e of result.events.filter((event) => event.type === "error")) {
        expect(e.data).toMatchObject({ fatal: false });
      }
    },
  },
  "renderer's write throws": {
    setup: (value) => {
      const renderer = new Renderer({
        write: () => {
          throw value();
        },
      });
      return { options: { onEvent: (event) => renderer.handle(event) }, steps: [answer] };
    },
    check: completedWithHookError,
  },
  "renderer rule throws": {
    setup: (value) => {
      const output: string[] = [];
      const renderer = new Renderer({ write: (text) => output.push(text) }).onEvent("loop_end", () => {
        throw value();
      });
      return { options: { onEvent: (event) => renderer.handle(event) }, steps: [answer] };
    },
    check: (result) => expect(result.stopReason).toBe("completed"),
  },
  "model throws": {
    setup: (value) => ({ options: {}, steps: [{ error: value() }] }),
    check: endedWithError,
  },
  "model stream fails after a part": {
    setup: (value) => ({
      options: {},
      steps: [{ text: "partial answer", error: value(), errorAfterParts: 1 }],
    }),
    check: endedWithError,
  },
  "model stream yields an error part": {
    setup: (value) => ({ options: {}, steps: [{ error: value(), errorAs: "part" }] }),
    check: endedWithError,
  },
};

let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
let dir = "";

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  dir = await mkdtemp(join(tmpdir(), "agentloop-hostile-"));
});
afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  // Late rejections surface after a few turns of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const seen = unhandled;
  unhandled = [];
  expect(seen).toEqual([]);
});

async function runOnce(agent: Agent, mode: Mode, sessionId: string): Promise<AgentResult> {
  if (mode === "run") return agent.run("go", { sessionId });
  const stream = agent.stream("go", { sessionId });
  for await (const _event of stream) {
    // drain
  }
  return stream.result;
}

let sessions = 0;

describe.each(["run", "stream"] as const)("hostile thrown values (%s)", (mode) => {
  for (const [boundaryName, boundary] of Object.entries(BOUNDARIES)) {
    for (const [valueName, value] of Object.entries(HOSTILE)) {
      it(`${boundaryName}: ${valueName}`, async () => {
        // Alternate the stores: both must release their lock.
        const store: SessionStore = sessions % 2 === 0 ? new MemoryStore() : new FileStore({ dir });
        const sessionId = `s${sessions++}`;
        const { options, steps } = boundary.setup(value);
        const model = new ScriptedModel([...steps, { text: "next run" }]);
        const agent = new Agent({ model, store, ...options, retry: { maxRetries: 0 } });
        const result = await runOnce(agent, mode, sessionId);
        boundary.check(result);
        // Every event is JSON (what renderers, traces and `--json` print).
        expect(() => JSON.stringify(result.events)).not.toThrow();
        if (result.error !== undefined) expect(typeof result.error.message).toBe("string");
        // The lock was released: the next run of the session is not SessionBusyError.
        const next = await new Agent({ model, store, retry: { maxRetries: 0 } })
          .run("again", { sessionId })
          .catch((error: unknown) => error);
        expect(SessionBusyError.isInstance(next)).toBe(false);
      });
    }
  }
});

describe("ThrownValueError", () => {
  it("describes what was thrown without running its code", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [10n, /a BigInt \(10n\)/],
      [Symbol("s"), /a Symbol \(Symbol\(s\)\)/],
      [Object.create(null), /an object with no prototype/],
      [HOSTILE["Proxy whose every trap throws"]?.(), /a Proxy object/],
      [
        HOSTILE["Error whose message, name and stack getters throw"]?.(),
        /an error \(Error\) whose name, message, stack cannot be read/,
      ],
    ];
    for (const [value, message] of cases) {
      const result = await new Agent({
        model: new ScriptedModel([{ error: value }]),
        retry: { maxRetries: 0 },
      }).run("go");
      expect(ThrownValueError.isInstance(result.error)).toBe(true);
      expect(result.error?.message).toMatch(message);
    }
  });
});
