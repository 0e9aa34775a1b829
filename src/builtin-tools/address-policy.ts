import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { NonPublicAddressError } from "../errors/non-public-address-error.js";

/** A `dns.lookup`-compatible function (the form `net.connect`'s `lookup` option takes). */
export type LookupFunction = (
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** `dns.lookup`, typed as a {@link LookupFunction}. */
export const systemLookup = dnsLookup as LookupFunction;

/** The name of the range of a non-public address, or undefined for a public (global unicast) one. */
export function nonPublicRange(address: string): string | undefined {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return "invalid";
  // `process` turns an IPv4-mapped IPv6 address (::ffff:127.0.0.1) into the IPv4 address it stands for.
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === "ipv6") {
    const parts = (parsed as ipaddr.IPv6).parts;
    // ::a.b.c.d (deprecated IPv4-compatible form): not a range ipaddr.js names, never a public destination.
    if (parts.slice(0, 6).every((part) => part === 0)) {
      return parsed.range() === "unicast" ? "ipv4Compatible" : parsed.range();
    }
  }
  const range = parsed.range();
  return range === "unicast" ? undefined : range;
}

/** Refuses an IP-literal host (URL hostname form, `[v6]` included); names are checked by the lookup. */
export function checkAddressLiteral(hostname: string): NonPublicAddressError | undefined {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  if (isIP(bare) === 0) return undefined;
  const range = nonPublicRange(bare);
  return range === undefined
    ? undefined
    : new NonPublicAddressError({ hostname: bare, address: bare, range });
}

/**
 * Wraps a lookup so that a connection can only be made to public addresses: every address the name resolves
 * to is checked (not just the first), and a name with any non-public address fails the connection with
 * {@link NonPublicAddressError}. Used as the connection's own `lookup`, so the address checked is the address
 * connected to: there is no window for DNS rebinding between a check and the connect.
 */
export function guardedLookup(inner: LookupFunction = systemLookup): LookupFunction {
  return (hostname, options, callback) => {
    inner(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) {
        callback(error, "");
        return;
      }
      const list: LookupAddress[] = Array.isArray(addresses)
        ? addresses
        : [{ address: addresses, family: isIP(addresses) }];
      for (const { address } of list) {
        const range = nonPublicRange(address);
        if (range !== undefined) {
          callback(new NonPublicAddressError({ hostname, address, range }), "");
          return;
        }
      }
      const first = list[0];
      if (first === undefined) {
        callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "");
        return;
      }
      if (options.all === true) callback(null, list);
      else callback(null, first.address, first.family);
    });
  };
}
