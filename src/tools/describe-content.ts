import type { ContentPart, FilePart, ImagePart, MessageContent } from "../models/content-part.js";

/** The decoded size of base64 `data`, in bytes. */
function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** A byte count for people: `812 B`, `12.3 KB`, `1.5 MB` (1 KB = 1024 bytes). */
export function formatByteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * A short note standing for an image or a file part, never its data: `[image image/png, 12.3 KB]`,
 * `[image https://example.com/a.png]`, `[file report.pdf, application/pdf, 1.2 MB]`.
 */
export function describeMediaPart(part: ImagePart | FilePart): string {
  const what = part.type === "file" && part.filename !== undefined ? `file ${part.filename},` : part.type;
  if (part.data === undefined) return `[${what} ${part.url ?? "(no data)"}]`;
  return `[${what} ${part.mediaType ?? "unknown type"}, ${formatByteSize(base64Bytes(part.data))}]`;
}

/**
 * Content as text for logs, events and error messages: a string as it is; parts as their text, each image or
 * file as a short note (see {@link describeMediaPart}), joined by newlines. Never contains inline data.
 */
export function describeContent(content: MessageContent): string {
  if (typeof content === "string") return content;
  return content
    .map((part: ContentPart) => (part.type === "text" ? part.text : describeMediaPart(part)))
    .join("\n");
}
