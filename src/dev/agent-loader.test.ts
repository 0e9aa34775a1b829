import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentLoader, type AgentLoadState } from "./agent-loader.js";
import { SRC, withTempDirs, writeAgentFile } from "./test-utils/dev-test-server.js";
import { testAgentSource } from "./test-utils/test-agent-source.js";

const tempDir = withTempDirs();
const loaders: AgentLoader[] = [];
afterEach(() => {
  for (const loader of loaders.splice(0)) loader.close();
});

function open(file: string, onReload?: (state: AgentLoadState) => void): AgentLoader {
  const loader = new AgentLoader({ file, debounceMs: 20, ...(onReload && { onReload }) });
  loaders.push(loader);
  return loader;
}

async function answer(state: AgentLoadState, input: string): Promise<string> {
  if (state.agent === undefined) throw new Error(`no agent: ${state.error?.message}`);
  return (await state.agent.run(input)).text;
}

/** Resolves with the next reload's state. */
function nextReload(): { onReload: (state: AgentLoadState) => void; next: () => Promise<AgentLoadState> } {
  let waiting: ((state: AgentLoadState) => void) | undefined;
  const seen: AgentLoadState[] = [];
  return {
    onReload: (state) => {
      if (waiting) {
        waiting(state);
        waiting = undefined;
      } else seen.push(state);
    },
    next: () => {
      const ready = seen.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no reload within 5 s")), 5_000);
        waiting = (state) => {
          clearTimeout(timer);
          resolve(state);
        };
      });
    },
  };
}

describe("AgentLoader", () => {
  it("loads the default export, an `agent` export, or a function returning one", async () => {
    const dir = await tempDir();
    const byDefault = await open(
      await writeAgentFile(dir, testAgentSource({ answer: "one" }), "a.mjs"),
    ).start();
    expect(byDefault).toMatchObject({ version: 1, error: undefined });
    expect(await answer(byDefault, "hi")).toBe("one to hi");
    const named = testAgentSource({ answer: "two" }).replace(
      "export default new Agent(",
      "export const agent = new Agent(",
    );
    expect(await answer(await open(await writeAgentFile(dir, named, "b.mjs")).start(), "hi")).toBe(
      "two to hi",
    );
    const factory = testAgentSource({ answer: "three" }).replace(
      "export default new Agent(",
      "export default () => new Agent(",
    );
    expect(await answer(await open(await writeAgentFile(dir, factory, "c.mjs")).start(), "hi")).toBe(
      "three to hi",
    );
  });

  it("reports a file that does not load or exports no agent, without throwing", async () => {
    const dir = await tempDir();
    const broken = await open(await writeAgentFile(dir, "export default new Agent({", "broken.mjs")).start();
    expect(broken.agent).toBeUndefined();
    expect(broken.version).toBe(0);
    expect(broken.error?.message).toMatch(/\S/);
    const none = await open(await writeAgentFile(dir, "export const x = 1;\n", "none.mjs")).start();
    expect(none.error?.message).toContain("exports no agent: export one as default");
    const throws = await open(
      await writeAgentFile(dir, 'throw new Error("no key set");\n', "throws.mjs"),
    ).start();
    expect(throws.error?.message).toContain("no key set");
  });

  it.runIf(!(process.features as { typescript?: unknown }).typescript)(
    "explains that a TypeScript file needs a Node that strips types",
    async () => {
      const dir = await tempDir();
      const state = await open(
        await writeAgentFile(dir, "export default 1 as number;\n", "agent.ts"),
      ).start();
      expect(state.error?.message).toContain("--experimental-strip-types");
    },
  );

  it("reloads on change; a broken edit keeps the last good agent and shows the error; a fix clears it", async () => {
    const dir = await tempDir();
    const file = await writeAgentFile(dir, testAgentSource({ answer: "first" }));
    const reloads = nextReload();
    const loader = open(file, reloads.onReload);
    expect(await answer(await loader.start(), "x")).toBe("first to x");

    await writeFile(file, testAgentSource({ answer: "second" }));
    const second = await reloads.next();
    expect(second).toMatchObject({ version: 2, error: undefined });
    expect(await answer(second, "x")).toBe("second to x");

    await writeFile(file, "export default new Agent({ model: ");
    const broken = await reloads.next();
    expect(broken.version).toBe(2);
    expect(broken.error).toBeDefined();
    expect(await answer(broken, "x")).toBe("second to x");

    await writeFile(file, testAgentSource({ answer: "third" }));
    const fixed = await reloads.next();
    expect(fixed).toMatchObject({ version: 3, error: undefined });
    expect(await answer(loader.state, "x")).toBe("third to x");
  });

  it("reloads a file replaced by rename, as editors save", async () => {
    const dir = await tempDir();
    const file = await writeAgentFile(dir, testAgentSource({ answer: "before" }));
    const reloads = nextReload();
    await open(file, reloads.onReload).start();
    const temporary = join(dir, ".agent.mjs.swp");
    await writeFile(temporary, testAgentSource({ answer: "after" }));
    await (await import("node:fs/promises")).rename(temporary, file);
    expect(await answer(await reloads.next(), "x")).toBe("after to x");
    expect(SRC("agent.ts")).toMatch(/src\/agent\.ts$/);
  });
});
