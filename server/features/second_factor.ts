/**
 * `createSecondFactor`: TOTP enrolment and removal, recovery codes, and the
 * second step of a sign-in (DESIGN.md §9). Mount each behind its guard, as
 * `createGatehouse`'s routes do: the enrolment routes and the count of
 * recovery codes left behind `auth.requireSession` (setup, removal and new
 * codes also behind the re-authentication window), `verifySecondFactor` in
 * public behind the login limiter.
 *
 * Wrong codes are also counted per address key by the account lock,
 * across pending sign-ins and re-authentication, with the wrong passwords
 * (`limits.accountLockThreshold` in `limits.accountLockWindow`, then 429
 * `login_rate_limited`; a trusted device counted on its own), and one's own
 * audited changes are bounded per account (enrolment, removal, new codes).
 *
 * @module
 */

import type {
  RecoveryCodeCountJson,
  RecoveryCodesJson,
  SecondFactorMethod,
  TotpSetupJson,
} from "@gatehouse/contract";
import { changeBudget, withinBudget } from "../core/_change_budget.ts";
import { fold } from "../core/_fold.ts";
import { countedGuess } from "../core/_counted.ts";
import { hashToken, isTokenShaped } from "../core/_crypto.ts";
import {
  CLEAR_CHALLENGE,
  lazyRelyingParty,
  readProof,
  spendCode,
  spendPasskey,
} from "../core/_factor_proofs.ts";
import type { Auth } from "../core/auth.ts";
import { contextOfOptions, type GatehouseContext } from "../core/context.ts";
import {
  defineOperation,
  handlersOf,
  type Operations,
} from "../core/operation.ts";
import { PENDING_COOKIE } from "../core/sessions.ts";
import { readCookie, serializeCookie } from "../http/cookie.ts";
import { decode, requiredString } from "../http/decode.ts";
import { AuthError } from "../http/errors.ts";
import { type Handler, NO_STORE, respond } from "../http/respond.ts";
import { endEnforcedSignIn } from "./_sso_enforced.ts";
import { hashRecoveryCode, newRecoveryCodes } from "../core/recovery_codes.ts";
import type { UserRecord } from "../core/store.ts";
import { loadTotp } from "../core/_totp_loader.ts";

/** Options of {@linkcode createSecondFactor}. */
export interface SecondFactorOptions {
  /** The authentication service whose accounts and sessions these are. */
  auth: Auth;
  /**
   * The site's public URL: its host names the issuer in authenticator
   * apps, and it is the relying party of a passkey used as second factor.
   */
  publicUrl?: string;
}

/** The TOTP, recovery-code and second-step handlers, named as their operations. */
export interface SecondFactor {
  /** `POST /api/auth/totp/setup`: 200 `{secret, otpauth_url, qr_svg}`. */
  setupTotp: Handler;
  /** `POST /api/auth/totp/confirm` `{code}`: 200 `{recovery_codes}`. */
  confirmTotp: Handler;
  /** `DELETE /api/auth/totp`: 204. */
  disableTotp: Handler;
  /** `POST /api/auth/recovery-codes`: 200 `{recovery_codes}`. */
  regenerateRecoveryCodes: Handler;
  /**
   * `GET /api/auth/recovery-codes`: 200 `{recovery_codes_left}`, the
   * caller's unused recovery codes (0 when TOTP is off).
   */
  countRecoveryCodes: Handler;
  /**
   * `POST /api/auth/second-factor` `{code}` | `{recovery_code}` |
   * `{passkey}` with the pending cookie: 200 Identity + session cookie.
   */
  verifySecondFactor: Handler;
}

/** Wrong codes a pending sign-in takes; the last one ends it. */
export const MAX_SECOND_FACTOR_FAILURES = 5;
// An enrolment not confirmed within this is forgotten.
const ENROLMENT_TTL = 10 * 60_000;

const PENDING_GONE = new AuthError("token_invalid", {
  message: "This sign-in is no longer valid: start again with your password",
});
const CODE_INVALID = new AuthError("code_invalid", { meta: { field: "code" } });

/**
 * Builds the second-factor handlers.
 *
 * @param options The auth service (its store, clock and settings are used).
 * @returns The six handlers.
 *
 * @example Mounting the second step of a sign-in
 * ```ts
 * import { createAuth } from "../core/auth.ts";
 * import { createSecondFactor } from "./second_factor.ts";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * const auth = createAuth({ store });
 * const { verifySecondFactor } = createSecondFactor({ auth });
 * const res = await verifySecondFactor(
 *   new Request("http://localhost/api/auth/second-factor", {
 *     method: "POST",
 *     body: JSON.stringify({ code: "123456" }),
 *   }),
 * );
 * console.assert(res.status === 410); // no pending sign-in
 * kv.close();
 * ```
 */
export function createSecondFactor(
  options: SecondFactorOptions | GatehouseContext,
): SecondFactor {
  return handlersOf(secondFactorOperations(contextOfOptions(options)));
}

/** The operations of one's second factor and of a sign-in's second step. */
export function secondFactorOperations(context: GatehouseContext): Operations<
  | "setupTotp"
  | "confirmTotp"
  | "disableTotp"
  | "regenerateRecoveryCodes"
  | "countRecoveryCodes"
  | "verifySecondFactor"
> {
  const { store, limits, now, trail, sessions } = context;
  const rp = lazyRelyingParty(context.publicUrl);
  const appName = context.publicUrl !== undefined &&
      URL.canParse(context.publicUrl)
    ? new URL(context.publicUrl).hostname
    : "Gatehouse";
  const clearPending = serializeCookie(PENDING_COOKIE, "", { maxAge: 0 });
  const lock = context.accountLock;
  // Each audited change of one's own second factor is real, but cheap to
  // repeat: bounded per account (_change_budget.ts).
  const budget = changeBudget(context);

  const setupTotp = defineOperation(
    context,
    "setupTotp",
    async function setupTotp(_req, { identity, standing }) {
      const { newTotpSecret, totpSetup } = await loadTotp();
      const secret = newTotpSecret();
      const at = now();
      await store.startTotpEnrolment({
        userId: identity.id,
        secret: await context.totpSealing.seal(secret, identity.id),
        createdAt: at,
        expiresAt: at + ENROLMENT_TTL,
      }, { actor: standing });
      const setup = totpSetup(secret, {
        issuer: appName,
        label: identity.email,
      });
      const body: TotpSetupJson = {
        secret: setup.secret,
        otpauth_url: setup.otpauthUrl,
        qr_svg: setup.qrSvg,
      };
      return respond(body, { headers: NO_STORE });
    },
  );

  // A confirmation that found no enrolment, or whose commit refused: when
  // another confirmation enabled TOTP meanwhile (the same right code sent
  // twice), that is what it is told, and a right code is not counted as a
  // guess; else the code was for no enrolment (counted, unless it was right
  // for the enrolment it read and `counted` is false).
  const lostOrWrong = async (userId: string, counted = true) =>
    (await store.totp(userId)) !== null
      ? new AuthError("second_factor_enabled")
      : counted
      ? countedGuess(CODE_INVALID)
      : CODE_INVALID;

  const confirmTotp = defineOperation(
    context,
    "confirmTotp",
    async function confirmTotp(req, { identity, standing }, _params, info) {
      const body = await decode(req, { maxBytes: limits.maxBodyBytes });
      const code = requiredString(body, "code");
      if ((await store.totp(identity.id)) !== null) {
        throw new AuthError("second_factor_enabled");
      }
      const at = now();
      const enrolment = await store.totpEnrolment(identity.id, at);
      const { totpStepOf } = await loadTotp();
      const step = enrolment === null || code.length > 64 ? null : totpStepOf(
        await context.totpSealing.open(enrolment.secret, identity.id),
        code,
        at,
      );
      if (enrolment === null) throw await lostOrWrong(identity.id);
      if (step === null) throw countedGuess(CODE_INVALID);
      const codes = newRecoveryCodes();
      const events = [
        trail.event("second_factor.enabled", {
          actor: identity,
          client: context.client(req, info),
          detail: { method: "totp" },
        }),
      ];
      const confirmed = await withinBudget(
        budget,
        identity.id,
        () =>
          store.confirmTotp(identity.id, {
            // As stored (sealed or not): the store compares it with the enrolment.
            secret: enrolment.secret,
            // The enrolment's step counts as used: its code is no sign-in code.
            step,
            recoveryCodeHashes: codes.map((c) => hashRecoveryCode(c)!),
            now: at,
            events,
            actor: standing,
          }),
      );
      if (confirmed instanceof Response) return confirmed;
      // The code was right for the enrolment read: its commit found TOTP
      // enabled meanwhile, or the enrolment replaced by a new setup (another
      // tab, another instance). Neither is a guess: the code is refused
      // for the enrolment now kept, and not counted.
      if (!confirmed) throw await lostOrWrong(identity.id, false);
      trail.committed(events);
      const answer: RecoveryCodesJson = { recovery_codes: codes };
      return respond(answer, { headers: NO_STORE });
    },
  );

  const disableTotp = defineOperation(
    context,
    "disableTotp",
    async function disableTotp(req, { identity, standing }, _params, info) {
      const events = [
        trail.event("second_factor.disabled", {
          actor: identity,
          client: context.client(req, info),
          detail: { method: "totp" },
        }),
      ];
      const disabled = await withinBudget(
        budget,
        identity.id,
        () => store.disableTotp(identity.id, { events, actor: standing }),
      );
      if (disabled instanceof Response) return disabled;
      if (disabled) trail.committed(events);
      return new Response(null, { status: 204, headers: NO_STORE });
    },
  );

  const regenerateRecoveryCodes = defineOperation(
    context,
    "regenerateRecoveryCodes",
    async function regenerateRecoveryCodes(
      req,
      { identity, standing },
      _params,
      info,
    ) {
      const codes = newRecoveryCodes();
      const events = [
        trail.event("recovery_codes.regenerated", {
          actor: identity,
          client: context.client(req, info),
        }),
      ];
      const replaced = await withinBudget(
        budget,
        identity.id,
        () =>
          store.replaceRecoveryCodes(
            identity.id,
            codes.map((c) => hashRecoveryCode(c)!),
            { events, actor: standing },
          ),
      );
      if (replaced instanceof Response) return replaced;
      if (!replaced) throw new AuthError("totp_not_enabled");
      trail.committed(events);
      const answer: RecoveryCodesJson = { recovery_codes: codes };
      return respond(answer, { headers: NO_STORE });
    },
  );

  // Reads no input: a query string or a body is ignored. The count says
  // something about the caller's secrets, so it is never cached.
  const countRecoveryCodes = defineOperation(
    context,
    "countRecoveryCodes",
    async function countRecoveryCodes(_req, { identity }) {
      const totp = await store.totp(identity.id);
      const answer: RecoveryCodeCountJson = {
        recovery_codes_left: totp?.recoveryCodesLeft ?? 0,
      };
      return respond(answer, { headers: NO_STORE });
    },
  );

  const verifySecondFactor = defineOperation(
    context,
    "verifySecondFactor",
    async function verifySecondFactor(req, _params, info) {
      const token = readCookie(req.headers.get("cookie"), PENDING_COOKIE);
      const body = await decode(req, { maxBytes: limits.maxBodyBytes });
      const proof = readProof(body, false);
      if (token === null || !isTokenShaped(token)) throw PENDING_GONE;
      const tokenHash = hashToken(token);
      const at = now();
      const pending = await store.findPendingSignIn(tokenHash, at);
      const user = pending === null
        ? null
        : await store.userById(pending.userId);
      if (pending === null || user === null) throw PENDING_GONE;
      const client = context.client(req, info);
      // An address an enforcing provider speaks for signs in through it
      // alone (DESIGN.md §13). Its password step refuses, but one taken
      // before the provider enforced the domain (an instance of before a
      // deploy, on the same store) must not finish here: the pending
      // sign-in is ended, as for a password since changed, so a retry finds
      // it gone and records nothing more; no proof is spent or counted, and
      // starting again with the password says sso_required.
      await endEnforcedSignIn(
        context,
        user,
        { client, detail: { email: user.email, method: proof.kind } },
        async () => (await store.spendPendingSignIn(tokenHash, at)) !== null,
        PENDING_GONE,
      );
      const scope = lock.scopeOf(req, fold(user.email));
      // Whether the proof held: its commit ended the pending sign-in too.
      let spent = false;
      // Whether the pending sign-in ended meanwhile, once a proof failed:
      // by another request's right code, by wrong codes, or with time.
      const ended = async () =>
        (await store.findPendingSignIn(tokenHash, at)) === null;
      let gone: boolean | undefined;
      if (proof.kind === "totp" || proof.kind === "recovery_code") {
        // Counted per address key as well as per client address; a right
        // code gives its attempt back, and clears the count once the
        // sign-in it finishes is committed (below). The code and the
        // pending sign-in are spent in one commit, so that of two second
        // steps with one right code, the later finds the sign-in gone,
        // not the code used, and is no guess (else 410, uncounted, below).
        const ticket = await lock.admit(scope, client);
        if (ticket instanceof Response) return ticket;
        try {
          spent = await spendCode(context, user, client, proof, at, {
            pending: { tokenHash, now: at },
          });
          if (!spent) gone = await ended();
        } catch (err) {
          // Judged nothing that counts (the store failed): the attempt
          // goes back, and is no longer tracked (a report of the scope
          // waits for it).
          await ticket.giveBack();
          throw err;
        }
        if (spent || gone) await ticket.giveBack();
        else await ticket.failed();
      } else if (proof.kind === "passkey") {
        // Not counted by the account lock (below). Its challenge, its use
        // and the pending sign-in are spent in one commit, as a code is: of
        // two second steps with one assertion, the later finds the sign-in
        // gone, not the challenge spent, and is no guess (410, below).
        spent = await spendPasskey(store, rp(), req, "second_factor", {
          userId: user.id,
          response: proof.value,
          now: at,
          binding: { pending: { tokenHash, now: at } },
        });
      }
      if (!spent) {
        // Nothing was judged against a pending sign-in that ended: a proof
        // checked against nothing is no guess.
        if (gone ?? await ended()) throw PENDING_GONE;
        const failure = await store.failPendingSignIn(
          tokenHash,
          at,
          MAX_SECOND_FACTOR_FAILURES,
        );
        loginFailed(user, client, proof.kind);
        if (failure === null || failure.ended) throw countedGuess(PENDING_GONE);
        throw new AuthError("credentials_invalid", {
          message: "The code is not valid",
        });
      }
      // The commit refuses only what also ends a pending sign-in (the
      // account gone or disabled, its generation or factor version moved
      // since the proof's commit, e.g. TOTP turned off on another
      // instance): the right proof was spent for a sign-in that ended, so
      // the answer is the ended sign-in's, start again, not a wrong code.
      const { cookie, events } = await sessions.signIn(user, {
        generation: pending.generation,
        factorVersion: pending.factorVersion,
        method: proof.kind as SecondFactorMethod,
      }, client).catch((err) => {
        throw err instanceof AuthError && err.code === "credentials_invalid"
          ? PENDING_GONE
          : err;
      });
      // A completed sign-in clears the count it was counted under (DESIGN.md
      // §15), whatever finished it: a passkey too, which is neither counted
      // nor refused (it cannot be guessed, and keeps the owner a way in). Not
      // before the commit: a sign-in refused there (the account disabled
      // meanwhile) completed nothing.
      await lock.proven(scope);
      trail.committed(events);
      const factors = await store.accountFactors(user.id);
      if (factors === null) throw PENDING_GONE;
      const headers = new Headers(NO_STORE);
      headers.append("set-cookie", cookie);
      headers.append("set-cookie", clearPending);
      headers.append("set-cookie", lock.deviceCookie(req, scope.emailKey));
      if (proof.kind === "passkey") {
        headers.append("set-cookie", CLEAR_CHALLENGE);
      }
      return respond(await sessions.ownIdentity(user, factors), { headers });
    },
  );

  // A wrong code is a failed sign-in of a known account.
  function loginFailed(
    user: UserRecord,
    client: ReturnType<typeof context.client>,
    method: string,
  ) {
    trail.refused([trail.event("login.failed", {
      actor: user,
      client,
      detail: { email: user.email, method },
    })]);
  }

  return {
    setupTotp,
    confirmTotp,
    disableTotp,
    regenerateRecoveryCodes,
    countRecoveryCodes,
    verifySecondFactor,
  };
}
