import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreError } from "../errors/store-error.js";
import { FileStateStore } from "./file-state-store.js";
import { describeStateStoreContract } from "./state-store-contract.js";

let contractDir = "";
describeStateStoreContract({
  name: "FileStateStore",
  create: async () => {
    contractDir = await mkdtemp(join(tmpdir(), "agentloop-file-state-"));
    return new FileStateStore({ dir: contractDir });
  },
  cleanup: () => rm(contractDir, { recursive: true, force: true }),
});

describe("FileStateStore", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "agentloop-file-state-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("writes one versioned JSON file per key, atomically (no temporary file left)", async () => {
    const store = new FileStateStore({ dir });
    await Promise.all(Array.from({ length: 10 }, (_, index) => store.save("counter", index)));
    expect(await store.load("counter")).toBe(9);
    expect(await readdir(dir)).toEqual(["counter.json"]);
    expect(JSON.parse(await readFile(join(dir, "counter.json"), "utf8"))).toMatchObject({ v: 1, value: 9 });
  });

  it("keeps keys like ../x inside the directory", async () => {
    const store = new FileStateStore({ dir: join(dir, "inner") });
    await store.save("../escape", 1);
    expect(await readdir(join(dir, "inner"))).toEqual(["%2e%2e%2fescape.json"]);
  });

  it("rejects a value from a newer agentloop and a corrupt file", async () => {
    const store = new FileStateStore({ dir });
    await writeFile(join(dir, "future.json"), JSON.stringify({ v: 99, at: 1, value: 1 }));
    await writeFile(join(dir, "broken.json"), "{nope");
    for (const key of ["future", "broken"]) {
      const error = await store.load(key).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(StoreError.isInstance(error)).toBe(true);
    }
    await expect(store.load("future")).rejects.toThrow(/newer agentloop/);
  });
});
