// The language of a page: the first of the request's Accept-Language tags
// (by weight) that is English or has a shipped catalogue, English
// otherwise. The server renders the page in it and says so in <html lang>,
// and the browser keeps the same language, so the page never flashes from
// one language to the other.

import { catalogFor } from "@gatehouse/client/screens";

const TAG = /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/i;

/**
 * Picks the page's language from an Accept-Language header.
 *
 * @param header The header, or null.
 * @returns A tag such as `es-ES`, or `en`.
 */
export async function requestLanguage(header: string | null): Promise<string> {
  const tags = (header ?? "").split(",").slice(0, 20).map((part, index) => {
    const [tag = "", ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    return {
      tag: tag.trim(),
      weight: Number.isFinite(weight) ? weight : 0,
      index,
    };
  }).filter((entry) => entry.weight > 0 && TAG.test(entry.tag))
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of tags) {
    if (/^en(?:-|$)/i.test(tag)) return "en";
    if (await catalogFor(tag)) return tag;
  }
  return "en";
}
