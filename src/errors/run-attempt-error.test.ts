import { describe, expect, it } from "vitest";
import { AgentloopError } from "./agentloop-error.js";
import { RunAttemptError } from "./run-attempt-error.js";

describe("RunAttemptError", () => {
  it("says which run resumes in the next attempt and why this one ended", () => {
    const error = new RunAttemptError({ runId: "r1", error: { name: "LockLostError", message: "lost" } });
    expect(error.message).toBe('run "r1" ended with LockLostError: lost; it resumes in the next attempt');
    expect(error).toMatchObject({ name: "RunAttemptError", runId: "r1" });
    expect(AgentloopError.isInstance(error)).toBe(true);
    expect(RunAttemptError.isInstance(error)).toBe(true);
    expect(RunAttemptError.isInstance(new Error("x"))).toBe(false);
  });
});
