import { afterEach, describe, expect, it } from "vitest";
import { sseOf } from "../openai/test-utils/compatible-fixtures.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { randomSplits } from "../openai/test-utils/fixtures.js";
import { foldParts, readParts } from "../openai/test-utils/stream-parts.js";
import { readContentChunks } from "./read-content-chunks.js";
import { compatibleModel } from "./test-utils/compatible-model.js";

// No recording of a Mistral reasoning model exists in the fixture collection: these answers are written by hand
// in the documented shape (content as `thinking` / `text` chunks), so they check only that both are read.

const thinking = (text: string) => ({ type: "thinking", thinking: [{ type: "text", text }] });

describe("readContentChunks", () => {
  it("joins text chunks as the answer and thinking chunks as the reasoning; skips the rest", () => {
    expect(
      readContentChunks([
        thinking("Let me "),
        thinking("think."),
        { type: "text", text: "The answer" },
        { type: "reference", reference_ids: [1] },
        { type: "text", text: " is 4." },
        null,
        "stray",
      ]),
    ).toEqual({ text: "The answer is 4.", thinking: "Let me think." });
  });
});

describe("Mistral reasoning models through the preset", () => {
  let server: FixtureServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const chunk = (content: unknown, finish: string | null = null) => ({
    model: "magistral-medium-latest",
    choices: [{ index: 0, delta: { content }, finish_reason: finish }],
  });

  it.each([1, 2])(
    "streamed (seed %i): thinking chunks as reasoning_delta, text chunks as text_delta",
    async (seed) => {
      const body = sseOf([
        chunk([thinking("2 and 2 ")]),
        chunk([thinking("make 4.")]),
        chunk([{ type: "text", text: "4" }]),
        chunk("", "stop"),
      ]);
      server = await startFixtureServer({ body, splitAt: randomSplits(body.length, seed, 13) });
      const parts = await readParts(
        compatibleModel({ preset: "mistral", baseURL: server.baseURL }).stream({
          messages: [{ role: "user", content: "2+2" }],
        }),
      );
      expect(parts.filter((p) => p.type !== "finish")).toEqual([
        { type: "reasoning_delta", delta: "2 and 2 " },
        { type: "reasoning_delta", delta: "make 4." },
        { type: "text_delta", delta: "4" },
      ]);
      expect(foldParts(parts)).toMatchObject({ text: "4", reasoning: "2 and 2 make 4." });
    },
  );

  it("not streamed: the message's chunks give the text and the reasoning", async () => {
    server = await startFixtureServer({
      contentType: "application/json",
      body: JSON.stringify({
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: [thinking("Simple."), { type: "text", text: "4" }] },
            finish_reason: "stop",
          },
        ],
      }),
    });
    const response = await compatibleModel({ preset: "mistral", baseURL: server.baseURL }).generate({
      messages: [{ role: "user", content: "2+2" }],
    });
    expect(response.text).toBe("4");
    expect(response.reasoning).toBe("Simple.");
  });
});
