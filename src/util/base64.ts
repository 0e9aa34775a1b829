/** Standard base64 of `text`'s UTF-8 bytes, without Node's `Buffer` (for short strings: credentials). */
export function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The bytes of a latin1 string (each char code 0-255 is one byte), without Node's `Buffer`. */
export function latin1Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
