/**
 * The first-run path: on a store with no accounts, issue an invitation for
 * the first administrator and return its link, so a fresh install needs no
 * other command to get in.
 *
 * @module
 */

import { uuidv7 } from "../core/_crypto.ts";
import { readEmail, readName } from "../core/_input.ts";
import { linkUrl, newLink, parsePublicUrl } from "../core/_links.ts";
import { type Limits, resolveLimits } from "../http/limits.ts";
import type { Store } from "../core/store.ts";

/** Options of {@linkcode firstRunInvitation}. */
export interface FirstRunOptions {
  /** The store to check and write. */
  store: Store;
  /** The first administrator's email; they sign in with it later. */
  email: string;
  /** Their display name. */
  name: string;
  /** Their role; it should be one of your privileged roles. */
  role: string;
  /** The site's base URL; the link is `{publicUrl}/invite#token=…`. */
  publicUrl: string;
  /** Link lifetime and input limits. */
  limits?: Partial<Limits>;
  /** The clock, ms since the epoch. */
  now?: () => number;
}

/**
 * Issues an invitation for the first administrator when the store has no
 * accounts. Every call on an empty store issues a new link; any of them
 * works only while the store still has no account (checked in the commit
 * that creates it), so the first account made by any means (one of these
 * links, `create-admin`) kills them all.
 *
 * @param options Store, who the first administrator is, and the site URL.
 * @returns The activation link, or null when the store already has accounts.
 *
 * @example On a fresh store
 * ```ts
 * import { firstRunInvitation } from "@gatehouse/server";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * const link = await firstRunInvitation({
 *   store,
 *   email: "admin@example.com",
 *   name: "Administrator",
 *   role: "admin",
 *   publicUrl: "http://localhost:8000",
 * });
 * console.assert(link?.startsWith("http://localhost:8000/invite#token="));
 * kv.close();
 * ```
 */
export async function firstRunInvitation(
  options: FirstRunOptions,
): Promise<string | null> {
  const limits = resolveLimits(options.limits);
  const base = parsePublicUrl(options.publicUrl)!;
  const { email, key } = readEmail(options.email, limits);
  const name = readName(options.name, limits);
  if (await options.store.hasUsers()) return null;
  const createdAt = (options.now ?? Date.now)();
  const { token, record } = newLink({
    id: uuidv7(createdAt),
    kind: "invitation",
    email,
    emailKey: key,
    name,
    role: options.role,
    userId: "",
    // No inviter: the first-run link, whose only authority is an empty store.
    invitedBy: "",
    generation: 0,
    createdAt,
    expiresAt: createdAt + limits.invitationTtl,
  });
  await options.store.createLink(record);
  return linkUrl(base, "invitation", token);
}
