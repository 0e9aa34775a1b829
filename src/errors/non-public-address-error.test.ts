import { describe, expect, it } from "vitest";
import { AgentloopError } from "./agentloop-error.js";
import { NonPublicAddressError } from "./non-public-address-error.js";

describe("NonPublicAddressError", () => {
  it("names the host, the address and its range, and is an AgentloopError", () => {
    const error = new NonPublicAddressError({
      hostname: "internal.test",
      address: "10.0.0.1",
      range: "private",
    });
    expect(error.message).toBe('"internal.test" resolves to 10.0.0.1, which is a private-network address');
    expect(error).toMatchObject({ name: "NonPublicAddressError", address: "10.0.0.1", range: "private" });
    expect(AgentloopError.isInstance(error)).toBe(true);
    expect(NonPublicAddressError.isInstance(error)).toBe(true);
    expect(NonPublicAddressError.isInstance(new Error("x"))).toBe(false);
  });

  it("names an address literal once, and a range it has no words for by its name", () => {
    const error = new NonPublicAddressError({ hostname: "::1", address: "::1", range: "reserved" });
    expect(error.message).toBe("::1 is a non-public address (reserved)");
  });
});
