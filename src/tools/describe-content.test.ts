import { describe, expect, it } from "vitest";
import { describeContent, describeMediaPart, formatByteSize } from "./describe-content.js";

describe("describeContent", () => {
  it("gives text as it is and media parts as notes without their data", () => {
    const data = Buffer.alloc(12_595).toString("base64");
    const text = describeContent([
      { type: "text", text: "Screenshot:" },
      { type: "image", data, mediaType: "image/png" },
      { type: "image", url: "https://example.com/a.png" },
      { type: "file", data: "JVBERg==", mediaType: "application/pdf", filename: "report.pdf" },
      { type: "file", data: "AAEC", mediaType: "application/gzip" },
    ]);
    expect(text).toBe(
      [
        "Screenshot:",
        "[image image/png, 12.3 KB]",
        "[image https://example.com/a.png]",
        "[file report.pdf, application/pdf, 4 B]",
        "[file application/gzip, 3 B]",
      ].join("\n"),
    );
    expect(text).not.toContain(data.slice(0, 20));
    expect(describeContent("plain")).toBe("plain");
  });

  it("formats sizes in B, KB and MB", () => {
    expect(formatByteSize(0)).toBe("0 B");
    expect(formatByteSize(1023)).toBe("1023 B");
    expect(formatByteSize(1024)).toBe("1.0 KB");
    expect(formatByteSize(1536 * 1024)).toBe("1.5 MB");
    expect(describeMediaPart({ type: "image", data: Buffer.alloc(1).toString("base64") })).toBe(
      "[image unknown type, 1 B]",
    );
  });
});
