import { describe, expect, it } from "vitest";
import { describeError } from "./describe-error.js";

describe("describeError", () => {
  it("adds the cause's code or message", () => {
    expect(describeError(new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }))).toBe(
      "fetch failed (ECONNREFUSED)",
    );
    expect(describeError(new TypeError("fetch failed", { cause: new Error("bad port") }))).toBe(
      "fetch failed (bad port)",
    );
    expect(describeError(new Error("plain"))).toBe("plain");
    expect(describeError("text")).toBe("text");
  });
});
