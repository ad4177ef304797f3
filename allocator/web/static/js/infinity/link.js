// The share link: the engagement in the URL's fragment (``#s=`` and its JSON in base64url), so
// that it never reaches a server log. Reading one checks only that it decodes; the server
// checks the engagement itself, as it checks any other.

/** The fragment of a link to ``engagement``. */
export function linkFragment(engagement) {
  const bytes = new TextEncoder().encode(JSON.stringify(engagement));
  const binary = Array.from(bytes, (byte) => String.fromCharCode(byte)).join("");
  return `#s=${btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")}`;
}

/** A problem with a link (it does not decode): its words say what to do. */
export class LinkError extends Error {}

/**
 * The engagement a fragment holds: null when it holds none (no ``#s=``); a LinkError when it
 * does not decode to a JSON object.
 */
export function readFragment(hash) {
  if (!hash.startsWith("#s=")) return null;
  const text = hash.slice(3);
  let value;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(text)) throw new Error("not base64url");
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    value = JSON.parse(new TextDecoder("utf-8", {fatal: true}).decode(bytes));
  } catch {
    throw new LinkError("the link is damaged: its end was cut off or changed; ask for the link "
      + "again");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new LinkError("the link holds no roll of two troopers");
  }
  return value;
}
