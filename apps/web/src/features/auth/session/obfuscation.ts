/**
 * Light obfuscation of tokens at rest (product spec section 9: "Tokens are stored lightly
 * obfuscated"). This is NOT encryption and NOT a security boundary: the key ships with the app,
 * so anyone who can read this origin's storage can undo it. It only keeps tokens from being
 * readable at a glance (in devtools, in a support screenshot, by a naive storage-scraping
 * extension). The real protections are short-lived access tokens, revocable refresh tokens and
 * the Content-Security-Policy.
 */
const PREFIX = 'o1:';
const KEY = [0x62, 0x64, 0x6d, 0x73, 0x2d, 0x6f, 0x62, 0x66]; // "bdms-obf"

function xor(bytes: Uint8Array): Uint8Array {
  return bytes.map((byte, index) => byte ^ KEY[index % KEY.length]!);
}

export function obfuscate(value: string): string {
  const bytes = xor(new TextEncoder().encode(value));
  return PREFIX + btoa(String.fromCharCode(...bytes));
}

/** The original value, or null when `stored` is not something `obfuscate` produced. */
export function deobfuscate(stored: unknown): string | null {
  if (typeof stored !== 'string' || !stored.startsWith(PREFIX)) return null;
  try {
    const binary = atob(stored.slice(PREFIX.length));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(xor(bytes));
  } catch {
    return null;
  }
}
