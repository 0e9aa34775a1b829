import { describe, expect, it } from "vitest";
import { hasHashTag, hashTag } from "./hash-tag.js";

/** What Redis Cluster hashes of a key: the first `{...}` with something inside, else the whole key. */
function hashedPart(key: string): string {
  const open = key.indexOf("{");
  const close = open < 0 ? -1 : key.indexOf("}", open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

describe("hashTag", () => {
  it("tags a plain id with itself", () => {
    expect(hashTag("user-42")).toBe("{user-42}");
    expect(hashTag("a{b")).toBe("{a{b}");
  });

  it("gives every key of an id one hashed part, also for ids an own tag would cut short or leave empty", () => {
    for (const id of ["user-42", "", "}", "}lead", "a}b", "{x}", "a{b", "ü 🌧"]) {
      const parts = new Set(
        ["p:session:", "p:state:", "p:lock:"].map((kind) => hashedPart(`${kind}${hashTag(id)}`)),
      );
      expect(parts.size).toBe(1);
      expect([...parts][0]).not.toBe("");
    }
  });

  it("keeps ids apart: distinct ids never share a tagged key", () => {
    const ids = ["a", "a}", "}a", "{a}", "", "}", "a}b", "a}c"];
    expect(new Set(ids.map(hashTag)).size).toBe(ids.length);
    expect(hashTag("a}b")).toMatch(/^\{[0-9a-f]{16}\}a\}b$/);
  });
});

describe("hasHashTag", () => {
  it("is true only for a non-empty tag", () => {
    expect(hasHashTag("{agentloop}")).toBe(true);
    expect(hasHashTag("bull:{q}:x")).toBe(true);
    expect(hasHashTag("bull")).toBe(false);
    expect(hasHashTag("{}x")).toBe(false);
    expect(hasHashTag("a{b")).toBe(false);
    expect(hasHashTag("a}b{")).toBe(false);
  });
});
