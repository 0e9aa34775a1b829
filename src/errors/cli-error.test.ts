import { describe, expect, it } from "vitest";
import { AgentloopError } from "./agentloop-error.js";
import { CliError } from "./cli-error.js";
import { EXIT_CODES } from "./cli-exit-codes.js";

describe("CliError", () => {
  it("is an AgentloopError carrying its exit code (1 by default, 2 for usage, 3 for configuration)", () => {
    const cause = new Error("root");
    const failed = new CliError({ message: "it broke", cause });
    expect(failed).toMatchObject({
      name: "CliError",
      message: "it broke",
      exitCode: EXIT_CODES.failed,
      cause,
    });
    expect(CliError.usage("bad flag").exitCode).toBe(2);
    expect(CliError.config("no key").exitCode).toBe(3);
    expect(AgentloopError.isInstance(failed)).toBe(true);
    expect(CliError.isInstance(failed)).toBe(true);
    expect(CliError.isInstance(new Error("it broke"))).toBe(false);
  });
});
