/**
 * The option groups the factories share, declared once: every factory that
 * reads a setting reads it under the same name and meaning, and
 * `createGatehouse` hands each the same value.
 *
 * @module
 */

import type { Limits } from "../http/limits.ts";
import type { Logger } from "../http/logger.ts";
import type { Mailer } from "./mailer.ts";
import type { MailTemplates } from "./mail/data.ts";
import type { MailKind } from "./mail/kinds.ts";
import type { PasswordHasher } from "./password.ts";
import type { RoleRegistry } from "./roles.ts";
import type { TrustedProxy } from "../http/client_address.ts";
import type { AuditEvent, Store } from "./store.ts";

/**
 * What every factory takes: the store and its collaborators.
 *
 * @example Shared settings
 * ```ts
 * import type { SharedOptions } from "@gatehouse/server";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const shared: SharedOptions = { store: new KvStore(kv), limits: { minPasswordLength: 16 } };
 * kv.close();
 * ```
 */
export interface SharedOptions {
  /** Where accounts, sessions, links and counts live. Required. */
  store: Store;
  /** Password hasher; argon2id at OWASP parameters by default. */
  hasher?: PasswordHasher;
  /** Where refusals, failures and unmailed links go; `console` by default. */
  logger?: Logger;
  /** Overrides of the input limits and link lifetimes. */
  limits?: Partial<Limits>;
  /** The clock, in ms since the epoch; `Date.now` by default (tests pass their own). */
  now?: () => number;
  /**
   * A proxy whose client-address header the limiters, sessions and audit
   * events may believe.
   */
  trustedProxy?: TrustedProxy;
  /**
   * Receives each audit event once its commit landed (e.g. to ship it to a
   * SIEM). A throw or rejection is logged and never changes an answer.
   */
  onEvent?: (event: AuditEvent) => void | Promise<void>;
}

/**
 * Who may administer users and which roles exist.
 *
 * @example The privileged list alone
 * ```ts
 * import type { RoleOptions } from "@gatehouse/server";
 *
 * const roles: RoleOptions = { privileged: ["admin"] };
 * ```
 */
export interface RoleOptions {
  /**
   * Roles that pass `requirePrivilege` and may administer accounts, copied
   * now; also the roles "last privileged account" protects. Empty admits
   * every role.
   */
  privileged?: readonly string[];
  /** Optional role registry; without it no identity carries capabilities. */
  roles?: RoleRegistry;
  /** @deprecated Use {@linkcode RoleOptions.roles}: the same registry. */
  capabilities?: RoleRegistry;
}

/**
 * How links reach people: the mailer, and the origin of every link.
 *
 * @example Links on a public origin, handed to the administrator
 * ```ts
 * import type { MailOptions } from "@gatehouse/server/mail";
 *
 * const mail: MailOptions = { publicUrl: "https://app.example" };
 * ```
 */
export interface MailOptions {
  /**
   * Sends invitations and reset links. Without one, `invite` answers the
   * activation link to the administrator and no reset link is sent (nor
   * logged: links are secrets); in development, `developmentMailer()`
   * prints them.
   */
  mailer?: Mailer;
  /**
   * The site's public base URL (e.g. `https://app.example.com`), the origin
   * of every link; required with a mailer. Without it, a link handed back to
   * the administrator uses the request's origin (a warning is logged once).
   */
  publicUrl?: string;
  /**
   * The product named in every message (its subject, its header line);
   * the host of `publicUrl` by default.
   */
  productName?: string;
  /**
   * Templates of your own by kind of mail, each `(data, locale) =>
   * {subject, text, html}`; the others stay the shipped ones
   * (`defaultMailTemplates`, English and Spanish).
   */
  templates?: MailTemplates;
  /**
   * The security notices sent to an account's owner after a change to how
   * it signs in (`password_changed`, `second_factor_enabled`, …): every
   * notice the mailer delivers by default, a list to pick some, `false` for
   * none.
   */
  notices?: false | readonly MailKind[];
}

/** Options of `createAuth`. */
export interface AuthOptions extends SharedOptions, RoleOptions {
  /** Session cookie name; `__Host-session` by default. */
  cookieName?: string;
  /** Session lifetime in ms; bounds the session and the cookie's Max-Age. 7 days by default. */
  sessionTtl?: number;
  /**
   * A session unused this long (ms) is dead; 24 hours by default. Use is
   * recorded at most once per min(60 s, idleTimeout / 10) per session.
   */
  idleTimeout?: number;
  /**
   * How long (ms) a proof of identity counts as recent for the sensitive
   * writes (`fresh` operations); 30 minutes by default.
   */
  reauthenticationWindow?: number;
  /**
   * Roles whose accounts must have a second factor (TOTP or a passkey).
   * Such an account without one signs in, its Identity says
   * `second_factor_required: true`, and every operation but enrolment
   * answers 403 `second_factor_required` until it enrols.
   */
  requireSecondFactor?: readonly string[];
  /**
   * Keys that seal TOTP secrets at rest (AES-256-GCM), each the base64 of
   * 32 random bytes: the first seals new enrolments, every one opens, so a
   * key is rotated by putting the new one first. Without keys, secrets are
   * stored as they are; secrets stored before keys were set keep working.
   * A malformed key throws a `TypeError` here.
   */
  totpKeys?: readonly string[];
  /**
   * Keys that sign the trusted-device cookie (`__Host-gatehouse-device`,
   * HMAC-SHA-256), each the base64 of at least 32 random bytes: the first
   * signs, every one verifies, so a key is rotated by putting the new one
   * first (dropping one distrusts the browsers it signed for). A browser
   * with a valid cookie for an address is counted by the account lock on
   * its own, so an attack from elsewhere does not lock it out (DESIGN.md
   * §15). Without keys, a random key of the process: trusted browsers are
   * then trusted by this process only, until it restarts. A malformed key
   * throws a `TypeError` here.
   */
  deviceKeys?: readonly string[];
}
