import { describe, expect, it } from "vitest";
import { decodeHtmlEntities } from "./decode-html-entities.js";
import { formatHttpBody } from "./format-http-body.js";
import { htmlToText } from "./html-to-text.js";

describe("htmlToText", () => {
  it("keeps the first title and drops invisible content", () => {
    const html =
      "<html><head><TITLE>  My\n Page </TITLE><script type='x'>var a = '</div>';</script>" +
      "<STYLE>p{}</STYLE></head><body><svg><title>icon</title><text>svg text</text></svg>" +
      "<noscript>no js</noscript><template>tpl</template><!-- a <p> comment -->" +
      "<p class=\"a>b\" data-x='1'>Hello <b>bold</b> <i>world</i></p></body></html>";
    expect(htmlToText(html)).toEqual({ title: "My Page", text: "Hello bold world" });
  });

  it("turns blocks into line breaks and list items into dashes", () => {
    const html =
      "<h1>Head</h1><div>one</div><div>two</div><ul><li>a</li><li>b</li></ul>" +
      "<table><tr><td>x</td><td>y</td></tr><tr><td>z</td></tr></table>a<br>b<br><br>c";
    expect(htmlToText(html).text).toBe("Head\n\none\ntwo\n- a\n- b\n\nx y\nz\n\na\nb\n\nc");
  });

  it("decodes entities, named and numeric, and keeps text-looking angle brackets", () => {
    expect(htmlToText("<p>a &lt; b &amp;&amp; 3 < 4 &#65;&#x42; &unknown; &amp</p>").text).toBe(
      "a < b && 3 < 4 AB &unknown; &amp",
    );
    expect(decodeHtmlEntities("&#0; &#xD800; &#x110000; &constructor; &hasOwnProperty; &AMP;")).toBe(
      "\uFFFD \uFFFD \uFFFD &constructor; &hasOwnProperty; &",
    );
  });

  it("does not let control characters of the page act as line breaks", () => {
    expect(htmlToText("a\u0001b\u0002c&#1;d").text).toBe("a b c d");
  });

  it("handles unterminated constructs by dropping the rest", () => {
    expect(htmlToText("text <!-- never closed <p>x").text).toBe("text");
    expect(htmlToText("text <script>never closed").text).toBe("text");
    expect(htmlToText('text <a href="never closed>more').text).toBe("text");
    expect(htmlToText("<title>t").title).toBe("t");
  });

  it.each([
    ["unterminated quotes", '<a x="'.repeat(200_000)],
    ["unclosed comments", "<!--".repeat(200_000)],
    ["closing-tag look-alikes in a script", `<script>${"</scrip".repeat(150_000)}`],
    ["nested tags", "<div>".repeat(200_000)],
    ["entity look-alikes", "&#x1".repeat(200_000)],
    ["angle brackets", "< <a <".repeat(150_000)],
    ["whitespace", `${" \n\t".repeat(300_000)}x`],
  ])("stays linear on adversarial input: %s", (_name, html) => {
    const started = performance.now();
    htmlToText(html);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe("formatHttpBody", () => {
  const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

  it("formats by content type", () => {
    expect(
      formatHttpBody({ contentType: "application/problem+json", bytes: bytes('{"a":1}'), truncated: false }),
    ).toBe('{\n  "a": 1\n}');
    expect(formatHttpBody({ contentType: "application/json", bytes: bytes("{bad"), truncated: false })).toBe(
      "{bad",
    );
    expect(formatHttpBody({ contentType: "text/csv", bytes: bytes("a,b"), truncated: false })).toBe("a,b");
    expect(formatHttpBody({ contentType: "application/pdf", bytes: bytes("%PDF"), truncated: true })).toBe(
      "[binary content (application/pdf), 4+ bytes, not shown]",
    );
  });

  it("sniffs a body without a type", () => {
    expect(
      formatHttpBody({ contentType: null, bytes: bytes("<!doctype html><p>hi"), truncated: false }),
    ).toBe("hi");
    expect(formatHttpBody({ contentType: null, bytes: bytes("plain"), truncated: false })).toBe("plain");
    expect(
      formatHttpBody({ contentType: null, bytes: new Uint8Array([0xff, 0xfe, 0]), truncated: false }),
    ).toMatch(/^\[binary content \(unknown type\)/);
  });

  it("decodes the declared charset and never ends a cut body with a broken character", () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9]);
    expect(
      formatHttpBody({ contentType: "text/plain; charset=ISO-8859-1", bytes: latin1, truncated: false }),
    ).toBe("café");
    const cut = bytes("ab😀").subarray(0, 4);
    expect(formatHttpBody({ contentType: "text/plain", bytes: cut, truncated: true })).toBe(
      "ab\n\n[http_get: the body was cut after 4 bytes]",
    );
  });

  it("does not pretty-print JSON whose indentation would blow up", () => {
    const deep = `${"[".repeat(3000)}1${"]".repeat(3000)}`;
    expect(formatHttpBody({ contentType: "application/json", bytes: bytes(deep), truncated: false })).toBe(
      deep,
    );
  });
});
