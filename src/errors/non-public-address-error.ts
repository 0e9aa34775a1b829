import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_NONPUBLICADDRESSERROR = errorMarker("NonPublicAddressError");

/** How the message names each non-public range (the names of ipaddr.js). */
const RANGE_NAMES: { readonly [range: string]: string } = {
  loopback: "a loopback address",
  linkLocal: "a link-local address (cloud metadata endpoints live there)",
  private: "a private-network address",
  uniqueLocal: "a private-network (unique local) address",
  unspecified: "the unspecified address",
  carrierGradeNat: "a carrier-grade NAT address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  ipv4Mapped: "an IPv4-mapped address",
  ipv4Compatible: "an IPv4-compatible address",
};

/** Options of {@link NonPublicAddressError}. */
export interface NonPublicAddressErrorOptions {
  /** The host as requested. */
  hostname: string;
  /** The address it is (an IP literal) or resolves to. */
  address: string;
  /** The non-public range of `address` (`loopback`, `private`, …). */
  range: string;
}

/** Thrown by a guarded lookup (and for an address literal) when a destination is not a public address. */
export class NonPublicAddressError extends AgentloopError {
  protected readonly [MARK_NONPUBLICADDRESSERROR] = true;
  /** The address refused. */
  readonly address: string;
  /** Its non-public range. */
  readonly range: string;

  constructor({ hostname, address, range }: NonPublicAddressErrorOptions) {
    const subject =
      hostname === address ? address : `${JSON.stringify(hostname)} resolves to ${address}, which`;
    super({ message: `${subject} is ${RANGE_NAMES[range] ?? `a non-public address (${range})`}` });
    this.name = "NonPublicAddressError";
    this.address = address;
    this.range = range;
  }

  static override isInstance(error: unknown): error is NonPublicAddressError {
    return hasMarker(error, MARK_NONPUBLICADDRESSERROR);
  }
}
