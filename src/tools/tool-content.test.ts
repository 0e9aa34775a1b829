import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { MAX_INLINE_PART_BYTES } from "../models/normalize-content.js";
import { executeToolCalls } from "./execute-tool-calls.js";
import { call, registry } from "./test-utils/tool-fixtures.js";
import { tool } from "./tool.js";
import { isToolContent, toolContent } from "./tool-content.js";

const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const PNG = Buffer.from(PNG_BYTES).toString("base64");

function returning(value: () => unknown, options: { maxResultChars?: number } = {}) {
  return tool({
    name: "shot",
    description: "returns a value",
    parameters: z.object({}),
    execute: value,
    ...options,
  });
}

async function outcomeOf(value: () => unknown, options: { maxResultChars?: number } = {}) {
  const [outcome] = await executeToolCalls({
    calls: [call("shot")],
    registry: registry(returning(value, options)),
    turn: 1,
  });
  if (outcome === undefined) throw new Error("no outcome");
  return outcome;
}

describe("toolContent", () => {
  it("normalises bytes, ArrayBuffers and data: URLs to base64 parts", () => {
    const content = toolContent([
      { type: "text", text: "a chart" },
      { type: "image", data: PNG_BYTES, mediaType: "image/png" },
      { type: "image", data: `data:image/png;base64,${PNG}` },
      { type: "file", data: PNG_BYTES.buffer, mediaType: "application/pdf", filename: "r.pdf" },
      { type: "image", url: "https://example.com/a.png" },
    ]);
    expect(content.parts).toEqual([
      { type: "text", text: "a chart" },
      { type: "image", data: PNG, mediaType: "image/png" },
      { type: "image", data: PNG, mediaType: "image/png" },
      { type: "file", data: PNG, mediaType: "application/pdf", filename: "r.pdf" },
      { type: "image", url: "https://example.com/a.png" },
    ]);
    expect(Object.isFrozen(content.parts)).toBe(true);
  });

  it("is recognised by its mark only: arrays and look-alike objects are not content", () => {
    expect(isToolContent(toolContent([{ type: "text", text: "x" }]))).toBe(true);
    expect(isToolContent([{ type: "text", text: "x" }])).toBe(false);
    expect(isToolContent({ parts: [{ type: "text", text: "x" }] })).toBe(false);
    expect(isToolContent(JSON.parse(JSON.stringify(toolContent([{ type: "text", text: "x" }]))))).toBe(false);
    expect(isToolContent(null)).toBe(false);
    expect(isToolContent("text")).toBe(false);
  });

  it("throws InvalidArgumentError for an invalid part or inline data over the limit", () => {
    expect(() => toolContent([{ type: "image", data: PNG_BYTES }])).toThrow(/needs a `mediaType`/);
    const big = new Uint8Array(MAX_INLINE_PART_BYTES + 1);
    let thrown: unknown;
    try {
      toolContent([{ type: "image", data: big, mediaType: "image/png" }]);
    } catch (error) {
      thrown = error;
    }
    expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toBe(
      `Invalid tool result[0]: ${MAX_INLINE_PART_BYTES + 1} bytes of inline data (at most ${MAX_INLINE_PART_BYTES})`,
    );
  });
});

describe("executeToolCalls with content parts", () => {
  it("sends the parts as the outcome's content; a plain array stays a JSON result", async () => {
    const parts = await outcomeOf(() =>
      toolContent([
        { type: "text", text: "here" },
        { type: "image", data: PNG_BYTES, mediaType: "image/png" },
      ]),
    );
    expect(parts.ok).toBe(true);
    expect(parts.content).toEqual([
      { type: "text", text: "here" },
      { type: "image", data: PNG, mediaType: "image/png" },
    ]);
    const array = await outcomeOf(() => [{ type: "text", text: "here" }]);
    expect(array.content).toBe('[{"type":"text","text":"here"}]');
  });

  it("also takes parts from an async tool, and no parts as (empty)", async () => {
    const asyncParts = await outcomeOf(async () =>
      toolContent([{ type: "image", data: PNG, mediaType: "image/png" }]),
    );
    expect(asyncParts.content).toEqual([{ type: "image", data: PNG, mediaType: "image/png" }]);
    expect((await outcomeOf(() => toolContent([]))).content).toBe("(empty)");
  });

  it("truncates the text parts to the result limit and keeps the images", async () => {
    const outcome = await outcomeOf(
      () =>
        toolContent([
          { type: "text", text: "0123456789" },
          { type: "image", data: PNG, mediaType: "image/png" },
          { type: "text", text: "abcdefghij" },
          { type: "text", text: "KLMNO" },
          { type: "image", url: "https://example.com/b.png" },
        ]),
      { maxResultChars: 14 },
    );
    expect(outcome.content).toEqual([
      { type: "text", text: "0123456789" },
      { type: "image", data: PNG, mediaType: "image/png" },
      { type: "text", text: "abcd…[truncated 11 characters]" },
      { type: "image", url: "https://example.com/b.png" },
    ]);
  });

  it("fails the call with a clear message when an image is over the inline limit", async () => {
    const big = new Uint8Array(MAX_INLINE_PART_BYTES + 10);
    const outcome = await outcomeOf(() =>
      toolContent([{ type: "image", data: big, mediaType: "image/png" }]),
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.content).toBe(
      `Tool "shot" failed: InvalidArgumentError: Invalid tool result[0]: ${MAX_INLINE_PART_BYTES + 10} bytes of inline data (at most ${MAX_INLINE_PART_BYTES})`,
    );
    expect(outcome.error?.type).toBe("ToolExecutionError");
  });
});
