import { describe, expect, it } from "vitest";
import { reportedRequestTokens } from "./reported-request-tokens.js";

describe("reportedRequestTokens", () => {
  it("reads the refused request's size from the common servers' overflow messages", () => {
    expect(
      reportedRequestTokens(
        "request (538 tokens) exceeds the available context size (512 tokens), try increasing it",
      ),
    ).toBe(538);
    expect(
      reportedRequestTokens(
        "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4500 in the messages, 500 in the completion). Please reduce the length of the messages or completion.",
      ),
    ).toBe(4500);
    expect(
      reportedRequestTokens(
        "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
      ),
    ).toBe(5000);
    expect(reportedRequestTokens("prompt is too long: 210000 tokens > 200000 maximum")).toBe(210000);
    expect(
      reportedRequestTokens("prompt too long; exceeded max context length by 12 tokens"),
    ).toBeUndefined();
    expect(reportedRequestTokens("")).toBeUndefined();
  });
});
