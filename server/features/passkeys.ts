/**
 * `createPasskeys`: registering, listing, renaming and removing one's own
 * passkeys, and signing in with one and no password (DESIGN.md §9). The
 * relying party (RP ID and origin) comes from `publicUrl`, never from a
 * request's `Host`. Challenges are kept by the store, single use, bound
 * to their use, for 5 minutes, under a cookie.
 *
 * @module
 */

import type { PasskeyJson, PasskeyListJson } from "@gatehouse/contract";
import { changeBudget, withinBudget } from "../core/_change_budget.ts";
import { hashToken, isTokenShaped, uuidv7 } from "../core/_crypto.ts";
import { fold } from "../core/_fold.ts";
import {
  CLEAR_CHALLENGE,
  keepChallenge,
  lazyRelyingParty,
  provePasskey,
  spendChallenge,
} from "../core/_factor_proofs.ts";
import { readId, readName } from "../core/_input.ts";
import type { Auth } from "../core/auth.ts";
import {
  contextOfOptions,
  type GatehouseContext,
  isContext,
} from "../core/context.ts";
import {
  defineOperation,
  handlersOf,
  type Operations,
} from "../core/operation.ts";
import { PENDING_COOKIE } from "../core/sessions.ts";
import { readCookie } from "../http/cookie.ts";
import { decode, type JsonObject, optionalString } from "../http/decode.ts";
import { AuthError } from "../http/errors.ts";
import { type Handler, NO_STORE, respond } from "../http/respond.ts";
import { refuseEnforcedSignIn } from "./_sso_enforced.ts";
import type { PasskeyRecord } from "../core/store.ts";
import {
  hasUserHandle,
  passkeyAuthenticationOptions,
  passkeyRegistrationOptions as creationOptions,
  verifyPasskeyRegistration,
} from "../core/webauthn.ts";

/** Options of {@linkcode createPasskeys}. */
export interface PasskeyOptions {
  /** The authentication service whose accounts and sessions these are. */
  auth: Auth;
  /**
   * The site's public URL (`https://…`, or `http://localhost:PORT` in
   * development): the RP ID is its host name and responses must come from
   * its origin. Without it, the passkey routes answer `internal`.
   */
  publicUrl?: string;
  /** The name authenticators show; the host name by default. */
  rpName?: string;
}

/** The passkey handlers, named as their operations. */
export interface Passkeys {
  /** `POST /api/auth/passkeys/register/options`: 200 creation options. */
  passkeyRegistrationOptions: Handler;
  /** `POST /api/auth/passkeys` `{response, name?}`: 201 Passkey. */
  registerPasskey: Handler;
  /** `GET /api/auth/passkeys`: 200 `{passkeys}`. */
  listPasskeys: Handler;
  /** `PATCH /api/auth/passkeys/{id}` `{name}`: 200 Passkey. */
  renamePasskey: Handler;
  /** `DELETE /api/auth/passkeys/{id}`: 204. */
  removePasskey: Handler;
  /**
   * `POST /api/auth/passkeys/login/options`: 200 request options, for a
   * passwordless sign-in, the pending second factor (with its cookie) or a
   * re-authentication (with a session).
   */
  passkeyLoginOptions: Handler;
  /** `POST /api/auth/passkeys/login` `{response}`: 200 Identity + session cookie. */
  loginWithPasskey: Handler;
}

/** Passkeys an account may hold. */
export const MAX_PASSKEYS = 20;

const PASSKEY_NOT_FOUND = new AuthError("passkey_not_found");
const PASSKEY_INVALID = new AuthError("passkey_invalid", {
  meta: { field: "response" },
});
const SIGN_IN_REFUSED = new AuthError("credentials_invalid", {
  message: "The passkey could not be verified",
});
const CHALLENGE_GONE = new AuthError("token_invalid", {
  message: "The passkey request has expired; ask for new options",
});

/**
 * Builds the passkey handlers.
 *
 * @param options The auth service and the site's public URL.
 * @returns The seven handlers.
 *
 * @example Options for a passwordless sign-in
 * ```ts
 * import { createAuth } from "../core/auth.ts";
 * import { createPasskeys } from "./passkeys.ts";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * const auth = createAuth({ store });
 * const passkeys = createPasskeys({ auth, publicUrl: "https://app.example" });
 * const res = await passkeys.passkeyLoginOptions(
 *   new Request("https://app.example/api/auth/passkeys/login/options", {
 *     method: "POST",
 *   }),
 * );
 * const options = await res.json();
 * console.assert(options.rpId === "app.example");
 * kv.close();
 * ```
 */
export function createPasskeys(
  options: PasskeyOptions | GatehouseContext,
): Passkeys {
  if (isContext(options)) return handlersOf(passkeyOperations(options));
  return handlersOf(
    passkeyOperations(contextOfOptions(options), options.rpName),
  );
}

/** The passkey operations, on one context (`rpName`: what authenticators show). */
export function passkeyOperations(
  context: GatehouseContext,
  rpName?: string,
): Operations<
  | "passkeyRegistrationOptions"
  | "registerPasskey"
  | "listPasskeys"
  | "renamePasskey"
  | "removePasskey"
  | "passkeyLoginOptions"
  | "loginWithPasskey"
> {
  const { store, limits, now, trail, sessions } = context;
  // Adding and removing passkeys are audited changes a scripted
  // authenticator can repeat at will: bounded per account, as the other
  // second-factor changes are (_change_budget.ts).
  const budget = changeBudget(context);
  const rp = lazyRelyingParty(context.publicUrl, rpName);

  const withChallenge = (body: unknown, cookie: string) =>
    respond(body, { headers: { ...NO_STORE, "set-cookie": cookie } });

  const registrationOptions = defineOperation(
    context,
    "passkeyRegistrationOptions",
    async function passkeyRegistrationOptions(_req, { identity, standing }) {
      const existing = await store.listPasskeys(identity.id);
      const creation = await creationOptions(
        rp(),
        identity,
        existing,
      );
      const cookie = await keepChallenge(
        store,
        creation.challenge,
        "register",
        identity.id,
        now(),
        // Kept only while the session asking stands, as its registration is.
        { actor: standing },
      );
      return withChallenge(creation, cookie);
    },
  );

  const registerPasskey = defineOperation(
    context,
    "registerPasskey",
    async function registerPasskey(req, { identity, standing }, _params, info) {
      const body = await decode(req, { maxBytes: limits.maxBodyBytes });
      const response = objectField(body, "response");
      const rawName = optionalString(body, "name");
      const name = rawName === undefined || rawName.trim() === ""
        ? "Passkey"
        : readName(rawName, limits);
      const at = now();
      const challenge = await spendChallenge(store, req, "register", at);
      if (challenge === null || challenge.userId !== identity.id) {
        throw PASSKEY_INVALID;
      }
      const credential = await verifyPasskeyRegistration(
        rp(),
        response,
        challenge.challenge,
      );
      if (credential === null) throw PASSKEY_INVALID;
      const id = uuidv7(at);
      const events = [
        trail.event("passkey.added", {
          actor: identity,
          client: context.client(req, info),
          detail: { passkey_id: id },
        }),
      ];
      let added: PasskeyRecord | null = null;
      const admitted = await withinBudget(budget, identity.id, async () => {
        added = await store.addPasskey(
          {
            id,
            userId: identity.id,
            ...credential,
            name,
            createdAt: at,
          },
          MAX_PASSKEYS,
          // Bound to the session it came with, as every change to one's own
          // factors is: an account disabled, signed out or reset meanwhile
          // gets the guard's answer, 401 session_absent.
          { events, actor: standing },
        );
        return added !== null;
      });
      if (admitted instanceof Response) return admitted;
      // At the cap. A code of its own (`passkey_limit_reached`) waits for the
      // client's error table; until then the refusal says why in words.
      if (added === null) {
        throw new AuthError("passkey_invalid", {
          message:
            `This account has ${MAX_PASSKEYS} passkeys, as many as it may: remove one first`,
          meta: { field: "response" },
        });
      }
      trail.committed(events);
      return respond(toPasskeyJson(added), {
        status: 201,
        headers: { ...NO_STORE, "set-cookie": CLEAR_CHALLENGE },
      });
    },
  );

  const listPasskeys = defineOperation(
    context,
    "listPasskeys",
    async function listPasskeys(_req, { identity }) {
      const body: PasskeyListJson = {
        passkeys: (await store.listPasskeys(identity.id)).map(toPasskeyJson),
      };
      return respond(body, { headers: NO_STORE });
    },
  );

  const renamePasskey = defineOperation(
    context,
    "renamePasskey",
    async function renamePasskey(req, { identity, standing }, params) {
      const id = readId(params?.pathname.groups.id, "passkey_id_malformed");
      const body = await decode(req, { maxBytes: limits.maxBodyBytes });
      const name = readName(requiredName(body), limits);
      const renamed = await store.renamePasskey(identity.id, id, name, {
        actor: standing,
      });
      if (renamed === null) throw PASSKEY_NOT_FOUND;
      return respond(toPasskeyJson(renamed), { headers: NO_STORE });
    },
  );

  const removePasskey = defineOperation(
    context,
    "removePasskey",
    async function removePasskey(req, { identity, standing }, params, info) {
      const id = readId(params?.pathname.groups.id, "passkey_id_malformed");
      const events = [
        trail.event("passkey.removed", {
          actor: identity,
          client: context.client(req, info),
          detail: { passkey_id: id },
        }),
      ];
      const removed = await withinBudget(
        budget,
        identity.id,
        () => store.removePasskey(identity.id, id, { events, actor: standing }),
      );
      if (removed instanceof Response) return removed;
      if (!removed) throw PASSKEY_NOT_FOUND;
      trail.committed(events);
      return new Response(null, { status: 204, headers: NO_STORE });
    },
  );

  // One route, three uses: with a live pending sign-in, the second factor
  // of that account; with a session, a re-authentication; else a
  // passwordless sign-in (the browser offers its discoverable passkeys).
  const passkeyLoginOptions = defineOperation(
    context,
    "passkeyLoginOptions",
    async function passkeyLoginOptions(req) {
      const at = now();
      const pending = await pendingOf(req, at);
      const session = pending === null
        ? await sessions.lookup(
          readCookie(req.headers.get("cookie"), sessions.cookieName) ?? "",
        )
        : null;
      const userId = pending?.userId ?? session?.id ?? "";
      const allowed = userId === "" ? [] : await store.listPasskeys(userId);
      const request = await passkeyAuthenticationOptions(rp(), allowed);
      const use = pending !== null
        ? "second_factor"
        : session !== null
        ? "reauthenticate"
        : "login";
      const cookie = await keepChallenge(
        store,
        request.challenge,
        use,
        userId,
        at,
      );
      return withChallenge(request, cookie);
    },
  );

  async function pendingOf(req: Request, at: number) {
    const token = readCookie(req.headers.get("cookie"), PENDING_COOKIE);
    if (token === null || !isTokenShaped(token)) return null;
    return await store.findPendingSignIn(hashToken(token), at);
  }

  const loginWithPasskey = defineOperation(
    context,
    "loginWithPasskey",
    async function loginWithPasskey(req, _params, info) {
      const body = await decode(req, { maxBytes: limits.maxBodyBytes });
      const response = objectField(body, "response");
      const at = now();
      const client = context.client(req, info);
      let factorVersion: number | undefined;
      // A challenge that is missing, spent or expired is no guess at anyone's
      // passkey: 410, start again with new options (no event, no count).
      const challenge = await spendChallenge(store, req, "login", at);
      if (challenge === null) throw CHALLENGE_GONE;
      // No account was named before this ceremony, so the assertion must say
      // whose it is (WebAuthn §7.2 step 6): without a user handle it is
      // refused like any failed sign-in; with one, the verifier checks it is
      // the credential's owner's.
      const passkey = !hasUserHandle(response)
        ? null
        : await provePasskey(store, rp(), challenge, {
          userId: null,
          response,
          now: at,
          // The session is bound to the factors as they were when the passkey
          // was found: one removed meanwhile moves the version.
          before: async (found) => {
            factorVersion = (await store.accountFactors(found.userId))
              ?.factorVersion;
            return factorVersion !== undefined;
          },
        });
      const user = passkey === null
        ? null
        : await store.userById(passkey.userId);
      if (passkey === null || user === null || user.disabled) {
        trail.refused([trail.event("login.failed", {
          actor: user,
          client,
          detail: { method: "passkey" },
        })]);
        throw SIGN_IN_REFUSED;
      }
      // An address an enforcing provider speaks for signs in through it
      // alone (DESIGN.md §13).
      refuseEnforcedSignIn(context, user, {
        client,
        detail: { method: "passkey" },
      });
      const { cookie, events } = await sessions.signIn(user, {
        ...(factorVersion === undefined ? {} : { factorVersion }),
        method: "passkey",
      }, client);
      trail.committed(events);
      // Not counted, never refused by the account lock (a passkey cannot be
      // guessed), but a completed sign-in: it clears its browser's count.
      const emailKey = fold(user.email);
      await context.accountLock.proven(
        context.accountLock.scopeOf(req, emailKey),
      );
      const factors = await store.accountFactors(user.id);
      if (factors === null) throw SIGN_IN_REFUSED;
      const headers = new Headers(NO_STORE);
      headers.append("set-cookie", cookie);
      headers.append("set-cookie", CLEAR_CHALLENGE);
      headers.append(
        "set-cookie",
        context.accountLock.deviceCookie(req, emailKey),
      );
      return respond(await sessions.ownIdentity(user, factors), { headers });
    },
  );

  return {
    passkeyRegistrationOptions: registrationOptions,
    registerPasskey,
    listPasskeys,
    renamePasskey,
    removePasskey,
    passkeyLoginOptions,
    loginWithPasskey,
  };
}

/** A passkey as the API answers it. */
function toPasskeyJson(passkey: PasskeyRecord): PasskeyJson {
  return {
    id: passkey.id,
    name: passkey.name,
    created_at: new Date(passkey.createdAt).toISOString(),
    last_used_at: passkey.lastUsedAt === null
      ? null
      : new Date(passkey.lastUsedAt).toISOString(),
  };
}

// A required object field (a WebAuthn response).
function objectField(body: JsonObject, field: string): object {
  const value = body[field];
  if (value === undefined || value === null) {
    throw new AuthError("body_field_required", {
      message: `Request body is missing a required field: "${field}"`,
      meta: { field },
    });
  }
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new AuthError("body_malformed", {
      message: `Field "${field}" must be an object`,
      meta: { field },
    });
  }
  return value;
}

function requiredName(body: JsonObject): string {
  const name = optionalString(body, "name");
  if (name === undefined) throw new AuthError("name_required");
  return name;
}
