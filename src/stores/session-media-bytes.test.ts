import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import type { Message } from "../models/message.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { FileStore } from "./file-store.js";
import { MemoryStore } from "./memory-store.js";
import type { SessionStore } from "./session-store.js";

const IMAGE = randomBytes(256 * 1024);
const IMAGE_JSON_BYTES = Math.ceil(IMAGE.length / 3) * 4;

/** `store`, counting the JSON bytes of what it is asked to write. */
function counting(store: SessionStore): { store: SessionStore; written: () => number } {
  let bytes = 0;
  const size = (messages: readonly Message[]) => Buffer.byteLength(JSON.stringify(messages));
  const wrapped: SessionStore = {
    load: (id) => store.load(id),
    lock: (id, options) => store.lock(id, options),
    saveState: (id, state) => store.saveState(id, state),
    list: () => store.list(),
    delete: (id) => store.delete(id),
    append: (id, messages, options) => {
      bytes += size(messages);
      return store.append(id, messages, options);
    },
    replace: (id, messages) => {
      bytes += size(messages);
      return store.replace(id, messages);
    },
  };
  return { store: wrapped, written: () => bytes };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentloop-session-media-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a session with an image in its first turn", () => {
  for (const kind of ["FileStore", "MemoryStore"] as const) {
    it(`writes the image once over 10 runs (${kind}): runs append their new messages only`, async () => {
      const base = kind === "FileStore" ? new FileStore({ dir: join(dir, kind) }) : new MemoryStore();
      const { store, written } = counting(base);
      for (let turn = 0; turn < 10; turn++) {
        const input =
          turn === 0
            ? [
                { type: "text" as const, text: "What is this?" },
                { type: "image" as const, data: new Uint8Array(IMAGE), mediaType: "image/png" },
              ]
            : `question ${turn}`;
        const agent = new Agent({ model: new ScriptedModel([{ text: `answer ${turn}` }]), store });
        await agent.run(input, { sessionId: "photo" });
      }
      expect(written()).toBeGreaterThan(IMAGE_JSON_BYTES);
      expect(written()).toBeLessThan(IMAGE_JSON_BYTES + 10_000);
      if (kind === "FileStore") {
        const files = await readdir(join(dir, kind));
        const sizes = await Promise.all(files.map((file) => stat(join(dir, kind, file))));
        expect(sizes.reduce((sum, file) => sum + file.size, 0)).toBeLessThan(IMAGE_JSON_BYTES + 12_000);
      }
      const loaded = await base.load("photo");
      expect(loaded?.messages).toHaveLength(20);
      expect(loaded?.messages[0]?.content).toEqual([
        { type: "text", text: "What is this?" },
        { type: "image", data: IMAGE.toString("base64"), mediaType: "image/png" },
      ]);
    });
  }
});
