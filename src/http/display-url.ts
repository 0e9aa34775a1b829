/**
 * The URL as messages may print it: without `user:password@` credentials. A string that does not parse as
 * a URL is returned unchanged.
 */
export function displayUrl(url: string): string {
  if (!url.includes("@")) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.username === "" && parsed.password === "") return url;
  parsed.username = "";
  parsed.password = "";
  const text = parsed.toString();
  // URL adds a "/" to a bare origin; keep the caller's form.
  return url.endsWith("/") || !text.endsWith("/") || parsed.pathname !== "/" ? text : text.slice(0, -1);
}
