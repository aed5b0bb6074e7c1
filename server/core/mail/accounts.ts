// What the notices read of the account they go to (DESIGN.md §14), and the
// account's language a sign-in sets. A committed `login.succeeded` sets the
// account's `locale` from the browser's Accept-Language (a shipped
// language, while the person has not chosen one; nothing is written when it
// is already that one), off the answer's path. A notice reads its account
// once, after the answer: its language (after the sign-in's own setting of
// it has landed), and for `new_sign_in` when it was made, which tells
// whether the audit trail still holds its whole history.

import { inBackground } from "../../http/_background.ts";
import type { Logger } from "../../http/logger.ts";
import type { EventParts } from "../_audit.ts";
import type { AuditEvent, Store, UserRecord } from "../store.ts";
import { browserLocale } from "./locale.ts";
import { isNewSignIn } from "./new_sign_in.ts";
import type { EventOrigin } from "./outbox.ts";
import type { RequestFacts } from "./request_facts.ts";

/** The account side of the notices of one context. */
export interface NoticeAccounts {
  /** Told of each committed event: a sign-in sets the account's language. */
  committed(
    event: AuditEvent,
    parts: EventParts | undefined,
    request: RequestFacts | undefined,
  ): void;
  /** What a notice of `event` reads of its account, after the answer. */
  origin(event: AuditEvent): Pick<EventOrigin, "accountLocale" | "sends">;
}

/** What {@linkcode noticeAccounts} needs. */
export interface NoticeAccountsSettings {
  store: Store;
  logger: Logger;
  /** How long the audit trail keeps events, ms. */
  retention: number;
}

/** Builds the account side of the notices of one context. */
export function noticeAccounts(
  settings: NoticeAccountsSettings,
): NoticeAccounts {
  const { store, logger, retention } = settings;
  // The language a sign-in is setting, by its event, for its notice to wait.
  const adopting = new WeakMap<AuditEvent, Promise<void>>();

  return {
    committed(event, parts, request) {
      if (event.type !== "login.succeeded") return;
      const account = parts?.actor;
      const wanted = browserLocale(request?.acceptLanguage);
      if (
        account === undefined || account === null || wanted === null ||
        account.localeChosen === true || account.locale === wanted
      ) {
        return;
      }
      // The rule keeps a chosen language if the person chose one since.
      const work = store.updateUser(account.id, {
        locale: { tag: wanted, chosen: false },
      });
      adopting.set(event, work.then(() => {}, () => {}));
      inBackground(
        store,
        work,
        (error) => logger.error("account language not recorded", { error }),
      );
    },
    origin(event) {
      const id = event.targetId ?? event.actorId;
      let read: Promise<UserRecord | null> | undefined;
      const account = () =>
        read ??= (async () => {
          await adopting.get(event);
          return id === null ? null : await store.userById(id);
        })();
      return {
        accountLocale: async () => (await account())?.locale ?? "",
        ...(event.type === "login.succeeded"
          ? {
            sends: async () => {
              const user = await account();
              return user !== null &&
                await isNewSignIn(event, {
                  store,
                  createdAt: user.createdAt,
                  retention,
                });
            },
          }
          : {}),
      };
    },
  };
}
