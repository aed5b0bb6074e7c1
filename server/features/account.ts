/**
 * `createAccount`: what a signed-in person does to their own account
 * (DESIGN.md §8, §10): change the password, prove who they are again
 * ("sudo mode"), list and end their sessions, read their own activity.
 * Mount each behind `auth.requireSession`, as `createGatehouse`'s routes do.
 *
 * @module
 */

import type { SessionJson, SessionListJson } from "@gatehouse/contract";
import type { ClientMeta } from "../http/_client_meta.ts";
import { changeBudget, withinBudget } from "../core/_change_budget.ts";
import { codeLock } from "../core/_code_lock.ts";
import { countedGuess, countingPasswordGuesses } from "../core/_counted.ts";
import {
  lazyRelyingParty,
  type Proof,
  readProof,
  spendCode,
  spendPasskey,
} from "../core/_factor_proofs.ts";
import { readId, readNewPassword } from "../core/_input.ts";
import {
  type Identity,
  identityFromContext,
  sessionFromContext,
} from "../core/identity.ts";
import { type Auth, sessionIssuer } from "../core/auth.ts";
import { decode, requiredString } from "../http/decode.ts";
import { AuthError } from "../http/errors.ts";
import {
  answeringErrors,
  type Handler,
  NO_STORE,
  respond,
} from "../http/respond.ts";
import { listActivityHandler } from "./audit_log.ts";
import type { SessionRecord } from "../core/store.ts";

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
}

// How often a session's re-authentications are recorded at most: one
// `reauthenticated` event per session in this long (ms), however many
// times its holder proves who they are.
const REAUTHENTICATION_RECORD_INTERVAL = 5 * 60_000;

const SESSION_ABSENT = new AuthError("session_absent");
const SESSION_NOT_FOUND = new AuthError("session_not_found");

/**
 * Builds the handlers of one's own account.
 *
 * @param options The auth service (its store, clock and settings are used).
 * @returns The six handlers.
 *
 * @example Mounting one's own sessions
 * ```ts
 * import { createAccount, createAuth } from "@gatehouse/server";
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
export function createAccount(options: AccountOptions): Account {
  const issuer = sessionIssuer(options.auth);
  const { store, hasher, limits, logger, now, trail } = issuer;
  const answering = answeringErrors(logger);
  const guessing = countingPasswordGuesses(logger);
  const rp = lazyRelyingParty(options.publicUrl);
  const lock = codeLock(issuer);
  const budget = changeBudget(issuer);

  // Checks a proof of identity of the signed-in account where it is spent:
  // its password, a TOTP code (its step once), a recovery code (once), or
  // a passkey answering a challenge issued for this use. A wrong one is a
  // counted guess. Answers the 429 to send when the account's codes are
  // locked, else null.
  async function checkProof(
    req: Request,
    identity: Identity,
    proof: Proof,
    client: ClientMeta,
  ): Promise<Response | null> {
    const at = now();
    if (proof.kind === "password") {
      const verified = await issuer.verifyPassword(identity.email, proof.value);
      if (verified === null || verified.user.id !== identity.id) {
        throw new AuthError("password_incorrect", {
          meta: { field: "password" },
        });
      }
      return null;
    }
    if (proof.kind === "passkey") {
      const passkey = await spendPasskey(
        store,
        rp(),
        req,
        "reauthenticate",
        identity.id,
        proof.value,
        at,
      );
      if (passkey === null) {
        throw countedGuess(
          new AuthError("passkey_invalid", { meta: { field: "passkey" } }),
        );
      }
      await lock.proven(identity.id);
      return null;
    }
    const field = proof.kind === "totp" ? "code" : "recovery_code";
    if ((await store.totp(identity.id)) === null) {
      throw new AuthError("totp_not_enabled", { meta: { field } });
    }
    // The same per-account count as the second step of a sign-in: a
    // session is no licence to grind codes (_code_lock.ts).
    const proven = await lock.check(
      identity,
      client,
      () => spendCode(issuer, identity, client, proof, at),
    );
    if (proven instanceof Response) return proven;
    if (!proven) {
      throw countedGuess(new AuthError("code_invalid", { meta: { field } }));
    }
    return null;
  }

  function caller(req: Request) {
    const identity = identityFromContext(req);
    const session = sessionFromContext(req);
    if (identity === null || session === null) throw SESSION_ABSENT;
    return { identity, session };
  }

  const changePassword = guessing(async function changePassword(
    req,
    _params,
    info,
  ) {
    const { identity } = caller(req);
    const body = await decode(req, { maxBytes: limits.maxBodyBytes });
    const current = requiredString(body, "current_password");
    const next = await readNewPassword(
      requiredString(body, "new_password"),
      limits,
      "new_password",
    );
    const verified = await issuer.verifyPassword(identity.email, current);
    if (verified === null || verified.user.id !== identity.id) {
      throw new AuthError("password_incorrect", {
        meta: { field: "current_password" },
      });
    }
    const client = issuer.client(req, info);
    const at = now();
    const { cookie, ...fresh } = issuer.issue(at, identity.id);
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
          expectedGeneration: verified.generation,
          passwordHash: await hasher.hash(next),
          session: { ...fresh, createdAt: at, ...client },
          events,
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
  });

  const reauthenticate = guessing(async function reauthenticate(
    req,
    _params,
    info,
  ) {
    const { identity, session } = caller(req);
    const body = await decode(req, { maxBytes: limits.maxBodyBytes });
    const proof = readProof(body, true);
    const client = issuer.client(req, info);
    const locked = await checkProof(req, identity, proof, client);
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
  });

  const listSessions = answering(async function listSessions(req) {
    const { identity, session } = caller(req);
    const at = now();
    const sessions = (await store.listSessions(identity.id, at))
      .filter((s) => at - s.lastSeenAt < issuer.idleTimeout)
      .map((s) => toSessionJson(s, session.id, issuer.idleTimeout));
    const body: SessionListJson = { sessions };
    return respond(body, { headers: NO_STORE });
  });

  // One event per action, naming the session(s) ended.
  const revoked = (
    identity: Identity,
    client: ClientMeta,
    detail: Record<string, string>,
  ) => [trail.event("session.revoked", { actor: identity, client, detail })];

  const revokeSession = answering(async function revokeSession(
    req,
    params,
    info,
  ) {
    const { identity, session } = caller(req);
    const id = readId(params?.pathname.groups.id, "session_id_malformed");
    const events = revoked(identity, issuer.client(req, info), {
      session_id: id,
      current: String(id === session.id),
    });
    if (!(await store.deleteSessionById(identity.id, id, { events }))) {
      throw SESSION_NOT_FOUND;
    }
    trail.committed(events);
    const headers: Record<string, string> = { ...NO_STORE };
    if (id === session.id) headers["set-cookie"] = issuer.clearing;
    return new Response(null, { status: 204, headers });
  });

  const revokeOtherSessions = answering(async function revokeOtherSessions(
    req,
    _params,
    info,
  ) {
    const { identity, session } = caller(req);
    const events = revoked(identity, issuer.client(req, info), {
      scope: "others",
      kept_session_id: session.id,
    });
    // The store writes the event only with a deletion: a loop of calls
    // with no other session records nothing.
    const ended = await store.deleteOtherSessions(
      identity.id,
      session.tokenHash,
      { events },
    );
    if (ended > 0) trail.committed(events);
    return new Response(null, { status: 204, headers: NO_STORE });
  });

  return {
    changePassword,
    reauthenticate,
    listSessions,
    revokeSession,
    revokeOtherSessions,
    listActivity: listActivityHandler(store, answering),
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
