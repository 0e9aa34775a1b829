import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { JsonValue, StateStore } from "./session-store.js";

/** Options of {@link describeStateStoreContract}. */
export interface StateStoreContractOptions {
  /** Shown in the test names. */
  name: string;
  /** Creates a store for one test (called before each test; the store is closed after it). */
  create: () => Promise<StateStore>;
  /** Runs after each test, once the store is closed. */
  cleanup?: () => Promise<void>;
  /** Runs of the property test (default 25). */
  propertyRuns?: number;
}

const canonical = (value: unknown): JsonValue => JSON.parse(JSON.stringify(value)) as JsonValue;

/** Registers the shared {@link StateStore} contract tests. */
export function describeStateStoreContract(options: StateStoreContractOptions): void {
  const { name, create, cleanup } = options;
  describe(`StateStore contract: ${name}`, () => {
    let store: StateStore;
    const newKey = (label: string) => `${label}-${randomUUID()}`;

    beforeEach(async () => {
      store = await create();
    });
    afterEach(async () => {
      await store.close?.();
      await cleanup?.();
    });

    it("load of an unknown key resolves undefined; clear of one is fine", async () => {
      const key = newKey("unknown");
      expect(await store.load(key)).toBeUndefined();
      await store.clear(key);
    });

    it("saves, overwrites, loads and clears", async () => {
      const key = newKey("Key/../ü:*");
      await store.save(key, { count: 1 });
      expect(await store.load(key)).toEqual({ count: 1 });
      await store.save(key, ["replaced"]);
      expect(await store.load(key)).toEqual(["replaced"]);
      await store.clear(key);
      expect(await store.load(key)).toBeUndefined();
    });

    it("clear() with no key removes every value", async () => {
      const keys = [newKey("all-a"), newKey("all-b/../ü"), newKey("all-c")];
      for (const [index, key] of keys.entries()) await store.save(key, { index });
      await store.clear();
      for (const key of keys) expect(await store.load(key)).toBeUndefined();
      await store.save(keys[0]!, "after");
      expect(await store.load(keys[0]!)).toBe("after");
      await store.clear();
      await store.clear();
    });

    it("round-trips every kind of JSON value", async () => {
      const values: JsonValue[] = [
        "text \u0000 ü 🌧️ \ud800",
        "",
        0,
        -12.5,
        1e300,
        true,
        false,
        null,
        [],
        {},
        [1, [2, [3, { deep: "x" }]]],
        { nested: { list: [null, true, "s"] }, "$agentloop:base64": "not really" },
      ];
      for (const value of values) {
        const key = newKey("value");
        await store.save(key, value);
        expect(await store.load(key)).toEqual(value);
      }
    });

    it("a loaded or saved value cannot be changed through the caller's object", async () => {
      const key = newKey("copy");
      const value = { list: [1, 2] };
      await store.save(key, value);
      value.list.push(3);
      const loaded = (await store.load(key)) as { list: number[] };
      loaded.list.push(4);
      expect(await store.load(key)).toEqual({ list: [1, 2] });
    });

    it("round-trips arbitrary JSON values (property)", async () => {
      await fc.assert(
        // Canonical JSON (a JSON round trip turns -0 into 0): what any JSON store must give back.
        fc.asyncProperty(
          fc.jsonValue({ maxDepth: 3, stringUnit: "binary" }).map(canonical),
          async (value) => {
            const key = newKey("property");
            await store.save(key, value);
            const loaded = await store.load(key);
            await store.clear(key);
            expect(loaded).toEqual(value);
          },
        ),
        { numRuns: options.propertyRuns ?? 25 },
      );
    });
  });
}
