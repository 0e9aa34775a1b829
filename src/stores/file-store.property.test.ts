import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "../models/message.js";
import { charArbitrary, richHistoryArbitrary } from "../providers/openai/test-utils/stream-arbitraries.js";
import { FileStore } from "./file-store.js";
import type { JsonValue } from "./session-store.js";

// Random rich histories written to a FileStore through random appends, replaces (snapshots, compacted files)
// and state saves, then loaded back: the history and state are what was written (as JSON).

type Operation =
  | { kind: "append"; count: number }
  | { kind: "replace"; keep: number }
  | { kind: "state"; state: { [key: string]: JsonValue } };

const operationArbitrary: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("append" as const), count: fc.integer({ min: 0, max: 8 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("replace" as const), keep: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("state" as const),
      state: fc.dictionary(
        fc.string({ unit: charArbitrary, maxLength: 6 }),
        fc.jsonValue({ maxDepth: 2, stringUnit: charArbitrary }),
        {
          maxKeys: 3,
        },
      ) as fc.Arbitrary<{ [key: string]: JsonValue }>,
    }),
  },
);

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentloop-file-store-property-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What a JSON file gives back for a value. */
const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe("FileStore properties (random histories, random operations)", () => {
  it("loads back exactly the history and state written (appends, snapshots, compaction)", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        richHistoryArbitrary,
        fc.array(operationArbitrary, { minLength: 1, maxLength: 8 }),
        fc.string({ unit: charArbitrary, minLength: 1, maxLength: 3 }),
        fc.constantFrom(0, 400, Number.POSITIVE_INFINITY),
        async (history, operations, name, compactAboveBytes) => {
          const store = new FileStore({ dir, compactAboveBytes });
          const sessionId = `${run++}:${name}`;
          let written: Message[] = [];
          let state: { [key: string]: JsonValue } = {};
          let next = 0;
          // An append of nothing writes nothing; anything else creates the session file.
          let created = false;
          for (const operation of operations) {
            if (operation.kind === "append") {
              const batch = history.slice(next, next + operation.count);
              next += batch.length;
              created ||= batch.length > 0;
              await store.append(sessionId, batch);
              written.push(...batch);
            } else if (operation.kind === "replace") {
              // A compacted history: a prefix of what was written (an empty one included).
              written = written.slice(0, operation.keep % (written.length + 1));
              created = true;
              await store.replace(sessionId, written);
            } else {
              state = operation.state;
              created = true;
              await store.saveState(sessionId, state);
            }
          }
          const loaded = await store.load(sessionId);
          if (!created) {
            expect(loaded).toBeUndefined();
            return;
          }
          expect(loaded?.sessionId).toBe(sessionId);
          expect(loaded?.messages).toStrictEqual(viaJson(written));
          expect(loaded?.messages).toEqual(written);
          expect(loaded?.state).toStrictEqual(viaJson(state));
          expect((await store.list()).map((info) => info.sessionId)).toContain(sessionId);
          await store.delete(sessionId);
        },
      ),
      { numRuns: 25 },
    );
  });
});
