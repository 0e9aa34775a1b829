/**
 * The AWS event-stream test vectors, as published in smithy-lang/smithy-typescript @
 * 6815d3e96f3abc32e238bf6d806523aab81c6a8e : `packages/core/src/submodules/event-streams/eventstream-codec/
 * TestVectors.fixture.ts` (Apache-2.0, licence in `test/fixtures/recorded/LICENSES/`; the same vectors are
 * in aws/aws-sdk-js-v3, written by awslabs/aws-c-event-stream's `event_stream_write_test_case` tool). The
 * encoded bytes are copied as hex; the decoded values are the fixture's, in this decoder's types (int64 as
 * bigint, timestamp as Date, UUID as a string).
 */

/** A vector the decoder must read. */
export interface DecodableVector {
  hex: string;
  headers: Record<string, unknown>;
  /** The payload as text (all payloads here are ASCII). */
  payload: string;
}

const FOO_BAR = "{'foo':'bar'}";

export const SUCCESS_VECTORS: Record<string, DecodableVector> = {
  all_headers: {
    hex:
      "000000cc000000af0fae64ca0a6576656e742d74797065040000a00c0c636f6e74656e742d747970650700106170706c" +
      "69636174696f6e2f6a736f6e0a626f6f6c2066616c73650109626f6f6c207472756500046279746502cf0862797465" +
      "2062756606001449276d2061206c6974746c6520746561706f74210974696d657374616d70080000000000845fed05" +
      "696e74313603002a05696e7436340500000000028757b20475756964090102030405060708090a0b0c0d0e0f107b27" +
      "666f6f273a27626172277daba5f10c",
    headers: {
      "event-type": 40972,
      "content-type": "application/json",
      "bool false": false,
      "bool true": true,
      byte: -49,
      "byte buf": new Uint8Array(Buffer.from("I'm a little teapot!")),
      timestamp: new Date(8675309),
      int16: 42,
      int64: 42424242n,
      uuid: "01020304-0506-0708-090a-0b0c0d0e0f10",
    },
    payload: FOO_BAR,
  },
  empty_message: { hex: "000000100000000005c248eb7d98c8ff", headers: {}, payload: "" },
  int32_header: {
    hex: "0000002d0000001041c424b80a6576656e742d74797065040000a00c7b27666f6f273a27626172277d36f480a0",
    headers: { "event-type": 40972 },
    payload: FOO_BAR,
  },
  payload_no_headers: {
    hex: "0000001d00000000fd528c5a7b27666f6f273a27626172277dc3653936",
    headers: {},
    payload: FOO_BAR,
  },
  payload_one_str_header: {
    hex:
      "0000003d0000002007fd83960c636f6e74656e742d747970650700106170706c69636174696f6e2f6a736f6e7b27666f" +
      "6f273a27626172277d8d9c08b1",
    headers: { "content-type": "application/json" },
    payload: FOO_BAR,
  },
};

/** Vectors the decoder must refuse, with the check that catches each. */
export const FAILURE_VECTORS: Record<string, { hex: string; reason: RegExp }> = {
  corrupted_headers: {
    hex:
      "0000003d0000002007fd83960c636f6e74656e742d747970650700106170706c69636174696f6e2f6a736f6e7b61666f" +
      "6f273a27626172277d8d9c08b1",
    reason: /message CRC mismatch/,
  },
  corrupted_header_len: {
    hex:
      "0000003d0000002107fd83960c636f6e74656e742d747970650700106170706c69636174696f6e2f6a736f6e7b27666f" +
      "6f273a27626172277d8d9c08b1",
    reason: /prelude CRC mismatch/,
  },
  corrupted_length: {
    hex:
      "0000003e0000002007fd83960c636f6e74656e742d747970650700106170706c69636174696f6e2f6a736f6e7b27666f" +
      "6f273a27626172277d8d9c08b1",
    reason: /prelude CRC mismatch/,
  },
  corrupted_payload: {
    hex: "0000001d00000000fd528c5a5b27666f6f273a27626172277dc3653936",
    reason: /message CRC mismatch/,
  },
};
