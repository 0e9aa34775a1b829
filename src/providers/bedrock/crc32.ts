/** The CRC-32 lookup table (IEEE 802.3 polynomial, reflected: 0xEDB88320), built on first use. */
let table: Uint32Array | undefined;

function crcTable(): Uint32Array {
  if (table !== undefined) return table;
  const built = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    built[n] = c >>> 0;
  }
  table = built;
  return built;
}

/**
 * The CRC-32 (IEEE, as zlib and AWS event streams compute it) of `bytes[start, end)`, as an unsigned 32-bit
 * number. `crc32(ascii("123456789"))` is `0xcbf43926`.
 */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  const lookup = crcTable();
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) {
    crc = (lookup[(crc ^ (bytes[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}
