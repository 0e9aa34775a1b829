import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeFileName, encodeFileName } from "./encode-file-name.js";

describe("encodeFileName", () => {
  it("round-trips, uses only safe lower-case characters and never collides", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 20 }), fc.string({ maxLength: 20 }), (a, b) => {
        const name = encodeFileName(a);
        // Ids whose encoding exceeds MAX_ENCODED_FILE_NAME_LENGTH are refused by design (tested below); random
        // multi-code-point graphemes can get there, so only encodable ids are checked here.
        fc.pre(name !== undefined);
        if (name === undefined) return;
        expect(name).toMatch(/^[a-z0-9_%-]+$/);
        expect(name.toLowerCase()).toBe(name);
        expect(decodeFileName(name)).toBe(a);
        if (a !== b) expect(encodeFileName(b)).not.toBe(name);
      }),
    );
  });

  it("encodes separators, dots and NUL", () => {
    expect(encodeFileName("../../etc/passwd")).toBe("%2e%2e%2f%2e%2e%2fetc%2fpasswd");
    expect(encodeFileName("a\u0000B")).toBe("a%00%42");
    expect(encodeFileName("")).toBe("%");
    expect(decodeFileName("%")).toBe("");
  });

  it("rejects over-long ids and lone surrogates; decodes only its own names", () => {
    expect(encodeFileName("é".repeat(40))).toBeUndefined();
    expect(encodeFileName("\ud800")).toBeUndefined();
    expect(decodeFileName("Upper")).toBeUndefined();
    expect(decodeFileName("%2E")).toBeUndefined();
    expect(decodeFileName("%41")).toBe("A");
    expect(decodeFileName("%ff")).toBeUndefined();
  });
});
