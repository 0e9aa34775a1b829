/** File names that hold credentials (compared case-insensitively). */
const SECRET_NAMES = new Set([
  ".env",
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pypirc",
  ".netrc",
  "_netrc",
  ".git-credentials",
  ".pgpass",
  ".dockercfg",
  ".htpasswd",
  "credentials",
  "id_rsa",
  "id_dsa",
  "id_ecdsa",
  "id_ed25519",
]);

/** Directories whose contents hold credentials or run code (`.git/hooks`, `.git/config`). */
const SECRET_DIRECTORIES = new Set([".git", ".ssh", ".aws", ".gnupg", ".kube", ".docker", ".azure"]);

/** Extensions of key and certificate stores. */
const SECRET_EXTENSIONS = [".pem", ".key", ".p12", ".pfx", ".jks", ".keystore"];

/** `.env` templates carry no values and are meant to be read. */
const ENV_TEMPLATES = new Set([".env.example", ".env.sample", ".env.template", ".env.dist"]);

/**
 * Why a workspace-relative path (`/` separators) names a file that likely holds secrets, or undefined: a
 * `.env` / `.env.*` file (not `.env.example`), a credentials file (`.npmrc`, `.netrc`, `.pgpass`, ...), a
 * private key (`id_rsa`, `*.pem`, `*.key`, ...), or anything inside `.git/`, `.ssh/`, `.aws/` and similar.
 */
export function secretPathReason({ path }: { path: string }): string | undefined {
  const segments = path.toLowerCase().split("/");
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1;
    if (!last && SECRET_DIRECTORIES.has(segment)) return `it is inside ${segment}/`;
    if (!last) continue;
    if (SECRET_DIRECTORIES.has(segment)) return `${segment} holds credentials`;
    if (ENV_TEMPLATES.has(segment)) return undefined;
    if (SECRET_NAMES.has(segment) || segment.startsWith(".env.")) return "it is a credentials file";
    if (SECRET_EXTENSIONS.some((extension) => segment.endsWith(extension))) return "it is a key file";
  }
  return undefined;
}

/** Whether text holds a PEM private key block. */
export function holdsPrivateKey(text: string): boolean {
  return /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/.test(text);
}
