import { decodeHtmlEntities } from "./decode-html-entities.js";

/** Elements whose content is never text for a reader. */
const DROPPED = new Set(["script", "style", "noscript", "template", "svg", "math"]);
/** Elements that end a paragraph. */
const PARAGRAPHS = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table", "hr"]);
/** Elements that end a line. */
// biome-ignore format: a compact table
const LINES = new Set([
  "address", "article", "aside", "body", "caption", "dd", "details", "dialog", "div", "dl", "dt",
  "fieldset", "figcaption", "figure", "footer", "form", "header", "hgroup", "html", "legend", "li", "main",
  "menu", "nav", "ol", "option", "section", "summary", "tbody", "tfoot", "thead", "tr", "ul",
]);
/** Break markers in the scanned text (control characters never kept from the page's text). */
const LINE = "\u0001";
const PARAGRAPH = "\u0002";
const BREAK = "\u0003";
/** No-break spaces, decoded newlines and marker look-alikes in the page's text all become spaces. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the break markers are control characters on purpose
const NOT_MARKERS = /[\u00a0\n\u0001-\u0003]/g;

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isNameChar(code: number): boolean {
  return isLetter(code) || (code >= 48 && code <= 57) || code === 45 || code === 58;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13;
}

/** The index of the `>` ending a tag whose name ends before `from` (quoted attribute values may hold `>`). */
function tagEnd(html: string, from: number): number {
  let quote = 0;
  let previous = 0;
  for (let index = from; index < html.length; index++) {
    const code = html.charCodeAt(index);
    if (quote !== 0) {
      if (code === quote) quote = 0;
      continue;
    }
    if (code === 62) return index;
    if ((code === 34 || code === 39) && previous === 61) quote = code;
    if (!isSpace(code)) previous = code;
  }
  return html.length;
}

/** Where the closing tag of `name` starts at or after `from`, and where it ends; `html.length` when absent. */
function closingTag(html: string, from: number, name: string): { start: number; end: number } {
  let at = from;
  while (true) {
    const start = html.indexOf("</", at);
    if (start === -1) return { start: html.length, end: html.length };
    const after = start + 2 + name.length;
    if (html.slice(start + 2, after).toLowerCase() === name && !isNameChar(html.charCodeAt(after))) {
      return { start, end: Math.min(tagEnd(html, after) + 1, html.length) };
    }
    at = start + 2;
  }
}

/**
 * Turns break markers into newlines and collapses whitespace: adjacent block boundaries count once (the
 * strongest wins), each `<br>` adds a line (at most a blank one), runs of spaces become one, no blank line at
 * either end.
 */
function tidy(text: string): string {
  const out: string[] = [];
  let space = false;
  let breaks = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (char === LINE || char === PARAGRAPH || char === BREAK) {
      if (char === LINE) breaks = Math.max(breaks, 1);
      else breaks = char === PARAGRAPH ? 2 : Math.min(2, breaks + 1);
      space = false;
    } else if (char === " ") {
      space = breaks === 0;
    } else {
      if (out.length > 0) {
        if (breaks > 0) out.push(breaks > 1 ? "\n\n" : "\n");
        else if (space) out.push(" ");
      }
      breaks = 0;
      space = false;
      out.push(char);
    }
  }
  return out.join("");
}

/** Text with HTML whitespace (and no-break spaces) as single spaces, references decoded. */
function textOf(raw: string): string {
  return decodeHtmlEntities(raw.replace(/[ \t\n\f\r]+/g, " ")).replace(NOT_MARKERS, " ");
}

/**
 * Turns an HTML document into readable text, without a DOM and in one linear pass (safe on adversarial
 * input: no backtracking regular expressions, unterminated constructs end the scan). Drops comments and the
 * content of script, style, noscript, template, svg and math; block elements become line breaks (paragraphs
 * and headings blank lines, list items `- `); entities are decoded; whitespace is collapsed. The first
 * `<title>` is returned separately. `<pre>` whitespace is not preserved.
 */
export function htmlToText(html: string): { title: string | undefined; text: string } {
  const parts: string[] = [];
  let title: string | undefined;
  let index = 0;
  while (index < html.length) {
    const open = html.indexOf("<", index);
    if (open === -1) {
      parts.push(textOf(html.slice(index)));
      break;
    }
    if (open > index) parts.push(textOf(html.slice(index, open)));
    index = open;
    if (html.startsWith("<!--", index)) {
      const end = html.indexOf("-->", index + 4);
      index = end === -1 ? html.length : end + 3;
      continue;
    }
    const next = html.charCodeAt(index + 1);
    if (next === 33 || next === 63) {
      const end = html.indexOf(">", index + 2);
      index = end === -1 ? html.length : end + 1;
      continue;
    }
    const closing = next === 47;
    let nameEnd = index + (closing ? 2 : 1);
    if (!isLetter(html.charCodeAt(nameEnd))) {
      parts.push("<");
      index++;
      continue;
    }
    const nameStart = nameEnd;
    while (nameEnd < html.length && isNameChar(html.charCodeAt(nameEnd))) nameEnd++;
    const name = html.slice(nameStart, nameEnd).toLowerCase();
    const end = tagEnd(html, nameEnd);
    index = Math.min(end + 1, html.length);
    // Only foreign elements (svg, math) can be self-closing; `<script/>` still has content in HTML.
    const selfClosing = html.charCodeAt(end - 1) === 47 && (name === "svg" || name === "math");
    if (!closing && !selfClosing && (DROPPED.has(name) || name === "title")) {
      const close = closingTag(html, index, name);
      if (name === "title" && title === undefined) title = tidy(textOf(html.slice(index, close.start)));
      index = close.end;
    } else if (name === "li" && !closing) {
      parts.push(`${LINE}- `);
    } else if (PARAGRAPHS.has(name)) {
      parts.push(PARAGRAPH);
    } else if (name === "br") {
      parts.push(BREAK);
    } else if (LINES.has(name)) {
      parts.push(LINE);
    } else if (name === "td" || name === "th") {
      parts.push(" ");
    }
  }
  return { title: title === "" ? undefined : title, text: tidy(parts.join("")) };
}
