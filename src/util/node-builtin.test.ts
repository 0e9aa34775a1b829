import { afterEach, describe, expect, it } from "vitest";
import { FileJournal } from "../durable/file-journal.js";
import { UnsupportedRuntimeError } from "../errors/unsupported-runtime-error.js";
import { getDefaultHttpClient } from "../http/http-client.js";
import { FileStateStore } from "../stores/file-state-store.js";
import { FileStore } from "../stores/file-store.js";
import { findNodeBuiltin, nodeBuiltin } from "./node-builtin.js";

const host = process as { getBuiltinModule?: unknown };
const original = host.getBuiltinModule;

/** Pretends to be a runtime without Node's built-ins (a browser, workerd without nodejs_compat). */
function withoutBuiltins(): void {
  host.getBuiltinModule = undefined;
}

afterEach(() => {
  host.getBuiltinModule = original;
});

describe("nodeBuiltin", () => {
  it("reads Node's modules through process.getBuiltinModule", () => {
    expect(findNodeBuiltin("node:path")?.join("a", "b")).toBe("a/b");
    expect(typeof nodeBuiltin({ id: "node:fs/promises", feature: "test" }).readFile).toBe("function");
  });

  it("throws UnsupportedRuntimeError naming the feature where there are none", () => {
    withoutBuiltins();
    expect(findNodeBuiltin("node:path")).toBeUndefined();
    const error = (() => {
      try {
        nodeBuiltin({ id: "node:fs/promises", feature: "FileStore" });
      } catch (caught) {
        return caught;
      }
    })();
    expect(UnsupportedRuntimeError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ feature: "FileStore", module: "node:fs/promises" });
    expect((error as Error).message).toMatch(/FileStore needs Node's node:fs\/promises/);
  });

  it("makes the file-backed stores fail at construction, naming themselves", () => {
    withoutBuiltins();
    for (const [name, make] of [
      ["FileStore", () => new FileStore({ dir: "/tmp/x" })],
      ["FileStateStore", () => new FileStateStore({ dir: "/tmp/x" })],
      ["FileJournal", () => new FileJournal({ dir: "/tmp/x" })],
    ] as const) {
      expect(make).toThrow(UnsupportedRuntimeError);
      expect(make).toThrow(new RegExp(`^${name} needs`));
    }
  });

  it("makes fetch the default transport where node:http is missing", async () => {
    withoutBuiltins();
    const calls: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = async (input) => {
      calls.push(String(input));
      return new Response("hello", { status: 200 });
    };
    try {
      const response = await getDefaultHttpClient()({
        url: "http://127.0.0.1:9/x",
        method: "GET",
        headers: {},
      });
      let text = "";
      for await (const chunk of response.body) text += chunk;
      expect([response.status, text, calls]).toEqual([200, "hello", ["http://127.0.0.1:9/x"]]);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
