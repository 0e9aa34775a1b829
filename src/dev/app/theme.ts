/** The theme choice kept in localStorage: "light", "dark", or absent (follow the system). */
const KEY = "agentloop-dev-theme";

function systemDark(): boolean {
  return window.matchMedia?.("(prefers-color-scheme: dark)").matches ?? false;
}

/** The theme in effect now. */
export function currentTheme(): "light" | "dark" {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === "light" || chosen === "dark") return chosen;
  return systemDark() ? "dark" : "light";
}

function label(button: HTMLButtonElement): void {
  const dark = currentTheme() === "dark";
  button.setAttribute("aria-pressed", String(dark));
  button.textContent = dark ? "Light theme" : "Dark theme";
}

/**
 * Applies the saved theme (or the system's, `prefers-color-scheme`) and makes `button` switch between light
 * and dark; the choice is kept across reloads.
 */
export function setUpTheme(button: HTMLButtonElement): void {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
    saved = null;
  }
  if (saved === "light" || saved === "dark") document.documentElement.dataset.theme = saved;
  label(button);
  button.addEventListener("click", () => {
    const next = currentTheme() === "dark" ? "light" : "dark";
    document.documentElement.dataset.theme = next;
    try {
      localStorage.setItem(KEY, next);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    label(button);
  });
  window.matchMedia?.("(prefers-color-scheme: dark)").addEventListener?.("change", () => label(button));
}
