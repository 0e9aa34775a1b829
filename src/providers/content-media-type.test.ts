import { describe, expect, it } from "vitest";
import { UnsupportedContentError } from "../errors/unsupported-content-error.js";
import {
  asImageIfImageFile,
  checkImagePart,
  contentMediaType,
  decodeBase64Text,
  fileNameOf,
} from "./content-media-type.js";

describe("content media types", () => {
  it("reads a media type without parameters, lowercased, image/jpg as image/jpeg", () => {
    expect(contentMediaType({ type: "file", data: "", mediaType: "Text/Plain; charset=utf-8" })).toBe(
      "text/plain",
    );
    expect(contentMediaType({ type: "image", data: "", mediaType: "image/JPG" })).toBe("image/jpeg");
    expect(contentMediaType({ type: "image", url: "https://x.test/a" })).toBeUndefined();
  });

  it("accepts PNG, JPEG, GIF and WebP images and an image URL without a type", () => {
    for (const mediaType of ["image/png", "image/jpeg", "image/gif", "image/webp"]) {
      expect(checkImagePart({ part: { type: "image", data: "AA==", mediaType }, provider: "p" })).toBe(
        mediaType,
      );
    }
    expect(
      checkImagePart({ part: { type: "image", url: "https://x.test/a" }, provider: "p" }),
    ).toBeUndefined();
  });

  it("refuses other image types with an UnsupportedContentError naming the provider and type", () => {
    expect(() =>
      checkImagePart({ part: { type: "image", data: "AA==", mediaType: "image/avif" }, provider: "p" }),
    ).toThrow(UnsupportedContentError);
    try {
      checkImagePart({ part: { type: "image", data: "AA==", mediaType: "image/avif" }, provider: "p" });
    } catch (error) {
      expect(error).toMatchObject({
        provider: "p",
        partType: "image",
        mediaType: "image/avif",
        isRetryable: false,
      });
      expect((error as Error).message).toBe(
        "p cannot take this image part (image/avif): only PNG, JPEG, GIF and WebP images are read; convert the image to one of those first",
      );
    }
  });

  it("turns a file part holding an image into an image part, and leaves other parts alone", () => {
    expect(asImageIfImageFile({ type: "file", url: "https://x.test/a.png", mediaType: "image/png" })).toEqual(
      {
        type: "image",
        url: "https://x.test/a.png",
        mediaType: "image/png",
      },
    );
    const pdf = { type: "file" as const, data: "AA==", mediaType: "application/pdf" };
    expect(asImageIfImageFile(pdf)).toBe(pdf);
  });

  it("names files by their filename, else by media type", () => {
    expect(fileNameOf({ type: "file", data: "", mediaType: "application/pdf", filename: "r.pdf" })).toBe(
      "r.pdf",
    );
    expect(fileNameOf({ type: "file", data: "", mediaType: "application/pdf" })).toBe("file.pdf");
    expect(fileNameOf({ type: "file", data: "", mediaType: "text/csv" })).toBe("file.csv");
    expect(fileNameOf({ type: "file", data: "", mediaType: "application/x-unknown" })).toBe("file");
  });

  it("decodes base64 UTF-8 text", () => {
    expect(decodeBase64Text(btoa(String.fromCharCode(...new TextEncoder().encode("ça va €"))))).toBe(
      "ça va €",
    );
    expect(() => decodeBase64Text("%%")).toThrow();
  });
});
