/**
 * `createAccount`: what a signed-in person does to their own account
 * (DESIGN.md §8, §10): change the password, prove who they are again
 * ("sudo mode"), list and end their sessions, read their own activity,
 * change their name and the language of their mail (§14).
 * Each handler comes behind the session guard the contract records.
 *
 * @module
 */

import type { SessionJson, SessionListJson } from "@gatehouse/contract";
import type { ClientMeta } from "../http/_client_meta.ts";
import { changeBudget, withinBudget } from "../core/_change_budget.ts";
import { fold } from "../core/_fold.ts";
import { countedGuess } from "../core/_counted.ts";
import {
  lazyRelyingParty,
  type Proof,
  readProof,
  spendCode,
  spendPasskey,
} from "../core/_factor_proofs.ts";
import { readId, readNewPassword } from "../core/_input.ts";
import type { ActorStanding } from "../core/actor.ts";
import type { Identity, SessionContext } from "../core/identity.ts";
import type { Auth } from "../core/auth.ts";
import { contextOfOptions, type GatehouseContext } from "../core/context.ts";
import {
  defineOperation,
  handlersOf,
  type Operations,
} from "../core/operation.ts";
import { decode, requiredString } from "../http/decode.ts";
import { AuthError } from "../http/errors.ts";
import { type Handler, NO_STORE, respond } from "../http/respond.ts";
import { listActivityOperation } from "./audit_log.ts";
import { updateAccountOperation } from "./account_profile.ts";
import type { SessionRecord, UserCredentials } from "../core/store.ts";

/** Options of {@linkcode createAccount}. */
export interface AccountOptions {
  /** The authentication service whose sessions these are. */
  auth: Auth;
  /**
   * The site's public URL: the relying party of a passkey given as proof
   * of identity (`POST /api/auth/reauthenticate {passkey}`).
   */
  publicUrl?: string;
}

/** The handlers of one's own account, named as their operations. */
export interface Account {
  /** `POST /api/auth/password` `{current_password, new_password}`: 204 + `Set-Cookie` of a fresh session. */
  changePassword: Handler;
  /** `POST /api/auth/reauthenticate` `{password}`: 204. */
  reauthenticate: Handler;
  /** `GET /api/auth/sessions`: 200 `{sessions}`, newest first. */
  listSessions: Handler;
  /** `DELETE /api/auth/sessions/{id}`: 204 (the current one also clears the cookie). */
  revokeSession: Handler;
  /** `DELETE /api/auth/sessions`: 204, every other session ended. */
  revokeOtherSessions: Handler;
  /** `GET /api/auth/activity?limit&cursor`: 200 `{events, next_cursor}`. */
  listActivity: Handler;
  /** `PATCH /api/auth/account` `{name?, locale?}`: 200 Identity. */
  updateAccount: Handler;
}

// How often a session's re-authentications are recorded at most: one
// `reauthenticated` event per session in this long (ms), however many
// times its holder proves who they are.
const REAUTHENTICATION_RECORD_INTERVAL = 5 * 60_000;

// The session is gone since its guard admitted it (changed, ended).
const SESSION_ABSENT = new AuthError("session_absent");
const SESSION_NOT_FOUND = new AuthError("session_not_found");

/**
 * Builds the handlers of one's own account.
 *
 * @param options The auth service (its store, clock and settings are used).
 * @returns The seven handlers.
 *
 * @example Mounting one's own sessions
 * ```ts
 * import { createAuth } from "../core/auth.ts";
 * import { createAccount } from "./account.ts";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * const auth = createAuth({ store });
 * const account = createAccount({ auth });
 * const listSessions = auth.requireSession(account.listSessions);
 * const res = await listSessions(new Request("http://localhost/api/auth/sessions"));
 * console.assert(res.status === 401);
 * kv.close();
 * ```
 */
export function createAccount(
  options: AccountOptions | GatehouseContext,
): Account {
  return handlersOf(accountOperations(contextOfOptions(options)));
}

/** The operations of one's own account, on one context. */
export function accountOperations(context: GatehouseContext): Operations<
  | "changePassword"
  | "reauthenticate"
  | "listSessions"
  | "revokeSession"
  | "revokeOtherSessions"
  | "listActivity"
  | "updateAccount"
> {
  const { store, hasher, limits, now, trail, sessions } = context;
  const rp = lazyRelyingParty(context.publicUrl);
  const lock = context.accountLock;

  // Whether `password` is the signed-in account's current one.
  const isOwnPassword = async (identity: Identity, password: string) => {
    const verified = await sessions.verifyPassword(identity.email, password);
    return verified !== null && verified.user.id === identity.id;
  };
  // Whether the session ended since it was checked: its account moved past
  // the session's generation (a password change or reset, a disable; a
  // password that no longer matches was then read against the new hash,
  // and may have been right), or the session itself is gone (its owner
  // ended it alone from another device). Either way it is no guess: the
  // session it came with is dead, and gets the guard's answer.
  const sessionEnded = async (identity: Identity, session: SessionContext) => {
    const [account, live] = await Promise.all([
      store.credentialsByEmail(fold(identity.email)),
      store.findSession(session.tokenHash, now(), identity.id),
    ]);
    return account === null || account.user.id !== identity.id ||
      account.generation !== session.generation || live === null;
  };
  const budget = changeBudget(context);
  // A session last seen at or before this time has idled out (DESIGN.md
  // §8): what the list leaves out and what cannot be ended by its id.
  const idleCutoff = (at: number) => at - context.idleTimeout;

  // Checks a proof of identity of the signed-in account where it is spent:
  // its password, a TOTP code (its step once), a recovery code (once), or
  // a passkey answering a challenge issued for this use. A wrong one is a
  // counted guess. Answers the 429 to send when the account's codes are
  // locked, else null.
  async function checkProof(
    req: Request,
    identity: Identity,
    session: SessionContext,
    proof: Proof,
    client: ClientMeta,
    standing: ActorStanding,
  ): Promise<Response | null> {
    const at = now();
    const scope = lock.scopeOf(req, fold(identity.email));
    if (proof.kind === "password") {
      // Counted by the account lock like a sign-in's password; a right one
      // is no sign-in and clears nothing.
      const right = await lock.check(scope, client, async () => {
        if (await isOwnPassword(identity, proof.value)) return true;
        // Thrown, the attempt goes back (see sessionEnded).
        if (await sessionEnded(identity, session)) throw SESSION_ABSENT;
        return false;
      });
      if (right instanceof Response) return right;
      if (!right) {
        throw new AuthError("password_incorrect", {
          meta: { field: "password" },
        });
      }
      return null;
    }
    if (proof.kind === "passkey") {
      // Its challenge and use are spent only while the session it
      // re-authenticates stands, as a code is.
      const proven = await spendPasskey(store, rp(), req, "reauthenticate", {
        userId: identity.id,
        response: proof.value,
        now: at,
        binding: { actor: standing },
      });
      if (!proven) {
        throw countedGuess(
          new AuthError("passkey_invalid", { meta: { field: "passkey" } }),
        );
      }
      // A re-authentication is no sign-in: like a right password here, a
      // passkey clears no count (DESIGN.md §15: a completed sign-in, a
      // reset or an administrator does).
      return null;
    }
    const field = proof.kind === "totp" ? "code" : "recovery_code";
    const totpOff = () =>
      new AuthError("totp_not_enabled", { meta: { field } });
    if ((await store.totp(identity.id)) === null) throw totpOff();
    // The same per-address count as the second step of a sign-in: a
    // session is no licence to grind codes (_account_lock.ts).
    const proven = await lock.check(scope, client, async () => {
      // Spent only while the session it re-authenticates stands: a code
      // sent as its account is signed out everywhere stays the owner's.
      const spent = await spendCode(context, identity, client, proof, at, {
        actor: standing,
      });
      if (spent) return true;
      // TOTP turned off meanwhile (another tab, another instance): the code
      // was checked against nothing, and is no guess. Thrown, the attempt
      // goes back, and the answer is an account's without TOTP, as the
      // same proof sent a moment later gets (see sessionEnded for a
      // password).
      if ((await store.totp(identity.id)) === null) throw totpOff();
      return false;
    });
    if (proven instanceof Response) return proven;
    if (!proven) {
      throw countedGuess(new AuthError("code_invalid", { meta: { field } }));
    }
    return null;
  }

  const changePassword = defineOperation(
    context,
    "changePassword",
    async function changePassword(
      req,
      { identity, session, standing },
      _params,
      info,
    ) {
      const body = await decode(req, { maxBytes: limits.maxBodyBytes });
      const current = requiredString(body, "current_password");
      const next = await readNewPassword(
        requiredString(body, "new_password"),
        limits,
        "new_password",
      );
      const client = context.client(req, info);
      // A wrong current password is a password guess: counted by the
      // account lock, refused before argon2 once the lock is on.
      const ticket = await lock.admit(
        lock.scopeOf(req, fold(identity.email)),
        client,
      );
      if (ticket instanceof Response) return ticket;
      let verified: UserCredentials | null;
      try {
        verified = await sessions.verifyPassword(identity.email, current);
      } catch (err) {
        await ticket.giveBack();
        throw err;
      }
      if (verified === null || verified.user.id !== identity.id) {
        // A right password read against the hash of a change that landed
        // meanwhile (a double submission, on any instance) is no guess:
        // the session it came with is dead, as the commit below would
        // have found it.
        let ended: boolean;
        try {
          ended = await sessionEnded(identity, session);
        } catch (err) {
          await ticket.giveBack();
          throw err;
        }
        if (ended) {
          await ticket.giveBack();
          throw SESSION_ABSENT;
        }
        await ticket.failed();
        throw new AuthError("password_incorrect", {
          meta: { field: "current_password" },
        });
      }
      await ticket.giveBack();
      // A right password read after the session's generation moved (signed
      // out everywhere, a reset or a change landed meanwhile, on any
      // instance): the session it came with is dead, and must not change
      // the password nor be handed a fresh session. The commit below
      // expects the session's generation, not the one read here.
      if (verified.generation !== session.generation) throw SESSION_ABSENT;
      const at = now();
      const { cookie, ...fresh } = sessions.issue(at, identity.id);
      const events = [
        trail.event("password.changed", {
          actor: identity,
          client,
          detail: { session_id: fresh.id },
        }),
      ];
      // Bounded per account like the other audited changes of one's own
      // account (_change_budget.ts): each is real, and costs only a call.
      const changed = await withinBudget(
        budget,
        identity.id,
        async () =>
          store.changePassword({
            userId: identity.id,
            expectedGeneration: session.generation,
            passwordHash: await hasher.hash(next),
            session: { ...fresh, createdAt: at, ...client },
            events,
            // The session that asked, at its own generation: a password
            // verified after its account was signed out everywhere (read
            // at the new generation) changes nothing.
            actor: standing,
          }),
      );
      if (changed instanceof Response) return changed;
      // The account changed since the password was verified (another change,
      // a reset, a disable): this session is dead too.
      if (!changed) throw SESSION_ABSENT;
      trail.committed(events);
      return new Response(null, {
        status: 204,
        headers: { ...NO_STORE, "set-cookie": cookie },
      });
    },
  );

  const reauthenticate = defineOperation(
    context,
    "reauthenticate",
    async function reauthenticate(
      req,
      { identity, session, standing },
      _params,
      info,
    ) {
      const body = await decode(req, { maxBytes: limits.maxBodyBytes });
      const proof = readProof(body, true);
      const client = context.client(req, info);
      const locked = await checkProof(
        req,
        identity,
        session,
        proof,
        client,
        standing,
      );
      if (locked !== null) return locked;
      // A right password costs the caller nothing but an argon2 wait, so a
      // loop of re-authentications must not write an event each: the first
      // of each session in REAUTHENTICATION_RECORD_INTERVAL is recorded (a
      // marker counter per session, exact across instances), the others
      // only renew the proof, which grows nothing. The answer is the same.
      const at = now();
      const marker = await store.reserveAttempt(
        `reauthenticated:session:${session.id}`,
        { now: at, windowMs: REAUTHENTICATION_RECORD_INTERVAL, limit: 1 },
      );
      const events = marker.admitted
        ? [
          trail.event("reauthenticated", {
            actor: identity,
            client,
            detail: { session_id: session.id, method: proof.kind },
          }),
        ]
        : [];
      const renewed = await store.renewAuthentication(session.tokenHash, {
        now: at,
        events,
      });
      if (!renewed) throw SESSION_ABSENT;
      trail.committed(events);
      return new Response(null, { status: 204, headers: NO_STORE });
    },
  );

  const listSessions = defineOperation(
    context,
    "listSessions",
    async function listSessions(_req, { identity, session }) {
      const at = now();
      const sessions = (await store.listSessions(identity.id, at))
        .filter((s) => s.lastSeenAt > idleCutoff(at))
        .map((s) => ({
          ...toSessionJson(s, session.id, context.idleTimeout),
          // The provider's name: a single sign-on's session (§13).
          via: s.ssoProvider === undefined
            ? null
            : context.sso.nameOf(s.ssoProvider),
        }));
      const body: SessionListJson = { sessions };
      return respond(body, { headers: NO_STORE });
    },
  );

  // One event per action, naming the session(s) ended.
  const revoked = (
    identity: Identity,
    client: ClientMeta,
    detail: Record<string, string>,
  ) => [trail.event("session.revoked", { actor: identity, client, detail })];

  const revokeSession = defineOperation(
    context,
    "revokeSession",
    async function revokeSession(
      req,
      { identity, session, standing },
      params,
      info,
    ) {
      const id = readId(params?.pathname.groups.id, "session_id_malformed");
      const events = revoked(identity, context.client(req, info), {
        session_id: id,
        current: String(id === session.id),
      });
      // Only a live session is the caller's to end: one that is dead
      // already (idled out, expired, revoked) is gone from the list and
      // answers as an unknown id does.
      const at = now();
      // Bound to the session that asked: once its account is signed out
      // everywhere or disabled, the guard's answer, not session_not_found.
      const ending = {
        now: at,
        idleCutoff: idleCutoff(at),
        events,
        actor: standing,
      };
      if (!(await store.deleteSessionById(identity.id, id, ending))) {
        throw SESSION_NOT_FOUND;
      }
      trail.committed(events);
      const headers: Record<string, string> = { ...NO_STORE };
      if (id === session.id) headers["set-cookie"] = sessions.clearing;
      return new Response(null, { status: 204, headers });
    },
  );

  const revokeOtherSessions = defineOperation(
    context,
    "revokeOtherSessions",
    async function revokeOtherSessions(
      req,
      { identity, session, standing },
      _params,
      info,
    ) {
      const events = revoked(identity, context.client(req, info), {
        scope: "others",
        kept_session_id: session.id,
      });
      // The store writes the event only with a deletion: a loop of calls
      // with no other session records nothing.
      const ended = await store.deleteOtherSessions(
        identity.id,
        session.tokenHash,
        // Bound to the session that asked: once the account is signed out
        // everywhere (or disabled), it ends none of the sessions made since.
        { events, actor: standing },
      );
      if (ended > 0) trail.committed(events);
      return new Response(null, { status: 204, headers: NO_STORE });
    },
  );

  return {
    changePassword,
    reauthenticate,
    listSessions,
    revokeSession,
    revokeOtherSessions,
    listActivity: listActivityOperation(context),
    updateAccount: updateAccountOperation(context),
  };
}

function toSessionJson(
  session: SessionRecord,
  currentId: string,
  idleTimeout: number,
): SessionJson {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    id: session.id,
    created_at: iso(session.createdAt),
    last_seen_at: iso(session.lastSeenAt),
    expires_at: iso(session.expiresAt),
    idle_expires_at: iso(
      Math.min(session.expiresAt, session.lastSeenAt + idleTimeout),
    ),
    ip: session.ip,
    user_agent: session.userAgent,
    current: session.id === currentId,
  };
}
