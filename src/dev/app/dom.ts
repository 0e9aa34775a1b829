/** A child of {@link h}: text (always set as text, never parsed as HTML), an element, or nothing. */
export type Child = string | number | Node | null | undefined | false;

/** Attributes of {@link h}: `class`, `aria-*`, `data-*` and other attributes as strings; `on<event>` handlers. */
export type Props = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

/**
 * Creates an element. Text children become text nodes, so model and tool text can never become markup (the
 * app never uses `innerHTML`). A `false`/`undefined` attribute is left out, `true` is set empty; `onclick`,
 * `oninput`… add listeners.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  append(element, ...children);
  return element;
}

/** Appends children (text as text nodes). */
export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(
      typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child,
    );
  }
}

/** Removes every child of `element`. */
export function clear(element: Element): void {
  element.replaceChildren();
}

/** The element with `id` (throws when the page lacks it: a bug in index.html). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`#${id} is missing from the page`);
  return element as T;
}
