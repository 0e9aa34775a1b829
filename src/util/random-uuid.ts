/**
 * A random version-4 UUID from Web Crypto (`globalThis.crypto`: Node 20+, Bun, Deno, workerd, browsers).
 * Browsers offer `crypto.randomUUID` only in secure contexts (https, localhost); elsewhere the UUID is built
 * from `crypto.getRandomValues`, which every context has.
 */
export function randomUUID(): string {
  const webCrypto = globalThis.crypto;
  if (typeof webCrypto.randomUUID === "function") return webCrypto.randomUUID();
  const bytes = webCrypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `byteCount` random bytes from Web Crypto as lowercase hex (for temporary file names). */
export function randomHex(byteCount: number): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(byteCount));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
