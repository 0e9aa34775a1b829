import { domainToASCII } from "node:url";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";

/** Decides whether a URL host may be fetched. */
export type HostCheck = (hostname: string) => boolean;

const IPV6 = /^[0-9a-f:.]+$/;

function withoutTrailingDot(host: string): string {
  return host.endsWith(".") ? host.slice(0, -1) : host;
}

/** Normalises one allowlist entry to the form `URL.hostname` has (lowercase, punycode, `[v6]`). */
function normalize(entry: string, index: number): string {
  const invalid = (message: string): InvalidArgumentError =>
    new InvalidArgumentError({ argument: `allowHosts[${index}]`, message });
  const host = withoutTrailingDot(entry.trim().toLowerCase());
  if (host.startsWith("[") && host.endsWith("]") && IPV6.test(host.slice(1, -1))) return host;
  if (host.includes(":")) {
    if (IPV6.test(host)) return `[${host}]`;
    throw invalid(`expected a host name without scheme or port, got ${JSON.stringify(entry)}`);
  }
  const ascii = domainToASCII(host);
  if (ascii === "" || /[/\s*@]/.test(ascii)) {
    throw invalid(`expected a host name such as "example.com", got ${JSON.stringify(entry)}`);
  }
  return ascii;
}

/**
 * Compiles an allowlist of hosts: exact names (`"api.example.com"`, `"127.0.0.1"`, `"[::1]"`) or wildcards
 * `"*.example.com"`, which match any subdomain (`a.example.com`, `a.b.example.com`) but not `example.com`
 * itself. Matching ignores case, ports and a trailing dot; Unicode names are compared in punycode. Throws
 * {@link InvalidArgumentError} for an entry that is not a host name (a URL, a port, a `*` elsewhere).
 */
export function compileHostAllowlist({ hosts }: { hosts: readonly string[] }): HostCheck {
  if (!Array.isArray(hosts)) {
    throw new InvalidArgumentError({ argument: "allowHosts", message: "expected an array of host names" });
  }
  const exact = new Set<string>();
  const suffixes: string[] = [];
  hosts.forEach((entry, index) => {
    if (typeof entry !== "string") {
      throw new InvalidArgumentError({ argument: `allowHosts[${index}]`, message: "expected a string" });
    }
    const trimmed = entry.trim();
    if (trimmed.startsWith("*.")) suffixes.push(`.${normalize(trimmed.slice(2), index)}`);
    else exact.add(normalize(trimmed, index));
  });
  return (hostname) => {
    const host = withoutTrailingDot(hostname.toLowerCase());
    return exact.has(host) || suffixes.some((suffix) => host.endsWith(suffix));
  };
}

/**
 * The hosts an allowlist names exactly (wildcard entries left out), as a check on `URL.hostname`: such a host
 * was chosen by name, so `http_get` lets it be a private or loopback address. Same normalisation and errors as
 * {@link compileHostAllowlist}.
 */
export function compileExactHosts({ hosts }: { hosts: readonly string[] }): HostCheck {
  return compileHostAllowlist({ hosts: hosts.filter((entry) => !String(entry).trim().startsWith("*.")) });
}
