import { describe, expect, it } from "vitest";
import { AgentloopError } from "./agentloop-error.js";
import { RequestTimeoutError } from "./request-timeout-error.js";

describe("RequestTimeoutError", () => {
  it("is an AgentloopError with the timeout as a field, recognised across package copies", () => {
    const error = new RequestTimeoutError({ timeoutMs: 250 });
    expect(error.message).toBe("no response within 250 ms");
    expect(error.timeoutMs).toBe(250);
    expect(error.name).toBe("RequestTimeoutError");
    expect(AgentloopError.isInstance(error)).toBe(true);
    expect(RequestTimeoutError.isInstance(error)).toBe(true);
    expect(RequestTimeoutError.isInstance(new Error("no response within 250 ms"))).toBe(false);
  });
});
