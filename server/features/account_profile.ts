// `PATCH /api/auth/account {name?, locale?}` (DESIGN.md §14): the signed-in
// person's own name and the language of their mail. The name follows the
// name rules; the language must be `en` or a shipped catalogue's tag. A
// chosen language is kept: sign-ins no longer set it from the browser. The
// change and its `account.updated` event are one commit; a request that
// changes nothing writes nothing.

import type { AuditTrail } from "../core/_audit.ts";
import { readName } from "../core/_input.ts";
import type { GatehouseContext } from "../core/context.ts";
import type { Identity } from "../core/identity.ts";
import { isShippedLocale, MAIL_LOCALES } from "../core/mail/locale.ts";
import { defineOperation, type Operation } from "../core/operation.ts";
import type { AuditEvent, UserRecord } from "../core/store.ts";
import type { ClientMeta } from "../http/_client_meta.ts";
import { decode, optionalString } from "../http/decode.ts";
import { AuthError } from "../http/errors.ts";
import { NO_STORE, respond } from "../http/respond.ts";

/** The operation of one's own name and language. */
export function updateAccountOperation(context: GatehouseContext): Operation {
  const { store, limits, trail } = context;
  return defineOperation(
    context,
    "updateAccount",
    async function updateAccount(req, { identity, standing }, _params, info) {
      const body = await decode(req, { maxBytes: limits.maxBodyBytes });
      const rawName = optionalString(body, "name");
      const rawLocale = optionalString(body, "locale");
      const name = rawName === undefined
        ? undefined
        : readName(rawName, limits);
      if (rawLocale !== undefined && !isShippedLocale(rawLocale)) {
        throw new AuthError("locale_unknown", {
          message: `Language "${rawLocale.slice(0, 16)}" is not one of ${
            MAIL_LOCALES.join(", ")
          }`,
          meta: { field: "locale" },
        });
      }
      const made = updateEvents(
        trail,
        identity,
        context.client(req, info),
      );
      const user = await store.updateUser(identity.id, {
        ...(name === undefined ? {} : { name }),
        ...(rawLocale === undefined
          ? {}
          : { locale: { tag: rawLocale, chosen: true } }),
        events: made.make,
        // Bound to the session it came with (`readAsActor`): an account
        // disabled or signed out everywhere meanwhile gets 401
        // session_absent, and keeps its name and language.
        actor: standing,
      });
      trail.committed(made.events);
      const answer: Identity = {
        ...identity,
        name: user.name,
        locale: user.locale ?? "",
      };
      return respond(answer, { headers: NO_STORE });
    },
  );
}

// The `account.updated` event of a change, made from the account before
// and after it; none when nothing changed. `events` holds what the
// committed attempt made.
function updateEvents(
  trail: AuditTrail,
  actor: Identity,
  client: ClientMeta,
) {
  const made = {
    events: [] as AuditEvent[],
    make(before: UserRecord, after: UserRecord): AuditEvent[] {
      const detail: AuditEvent["detail"] = {};
      if (before.name !== after.name) {
        detail.old_name = before.name;
        detail.new_name = after.name;
      }
      // A language chosen anew counts, even the one the browser had set.
      if (
        before.locale !== after.locale ||
        before.localeChosen !== after.localeChosen
      ) {
        detail.locale = after.locale ?? "";
      }
      made.events = Object.keys(detail).length === 0 ? [] : [
        trail.event("account.updated", {
          actor: { id: actor.id, email: actor.email, name: after.name },
          client,
          detail,
        }),
      ];
      return made.events;
    },
  };
  return made;
}
