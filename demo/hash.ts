// Content-hashed asset paths: a new build gets a new path, so an asset can
// be cached for good and a page never pairs with a stale one.

/** A text asset and the path it is served at. */
export interface HashedAsset {
  /** The content. */
  text: string;
  /** `{prefix}-{hash}.{extension}`, the hash being 12 hex digits of SHA-256. */
  path: string;
}

/**
 * Names `text` by its content.
 *
 * @param prefix Path before the hash, e.g. `/build/islands`.
 * @param extension File extension without the dot.
 * @param text The content.
 * @returns The text and its path.
 */
export async function hashedAsset(
  prefix: string,
  extension: string,
  text: string,
): Promise<HashedAsset> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(text),
  );
  const hash = new Uint8Array(digest).toHex().slice(0, 12);
  return { text, path: `${prefix}-${hash}.${extension}` };
}
