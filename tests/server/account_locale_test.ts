// The language of an account's mail (DESIGN.md §14), on every store, over
// real HTTP to a real SMTP server (npm:smtp-server, read back with
// npm:mailparser): set from the browser's Accept-Language at invitation
// acceptance and at each sign-in until the person chooses one with
// `PATCH /api/auth/account` (200 Identity, 400 `locale_unknown`, audited
// `account.updated`), kept by the store, and the language of the
// account's notices whatever the language of the request that causes them.

import { assert, assertEquals } from "../fixtures/assert.ts";
import {
  linkToken,
  mailSite,
  NEW_PASSWORD,
  PASSWORD,
  PRODUCT,
  sessionOf,
} from "../fixtures/mail.ts";
import { startSmtpServer, type TestSmtpServer } from "../fixtures/smtp.ts";
import { testEachStore } from "../fixtures/stores.ts";
import { HOSTILE } from "../fixtures/hostile.ts";
import type { Store } from "../../mod.ts";

type Site = Awaited<ReturnType<typeof mailSite>>;

const SPANISH = "es-MX,es;q=0.9,en;q=0.5";
const ENGLISH = "en-GB,en;q=0.9";

/** A mail site on `store` with a test SMTP server, closed after `fn`. */
async function withSite(
  store: Store,
  fn: (site: Site, smtp: TestSmtpServer) => Promise<void>,
) {
  const smtp = await startSmtpServer();
  const site = await mailSite({ smtpPort: smtp.port, store });
  try {
    await fn(site, smtp);
  } finally {
    await site.close();
    await smtp.close();
  }
}

/** The signed-in account's Identity, once background work has landed. */
async function identity(site: Site, cookie: string) {
  await site.gatehouse.settled();
  const res = await site.call("GET", "/api/auth/session", undefined, {
    cookie,
  });
  assertEquals(res.status, 200);
  return await res.json();
}

/** Every `account.updated` event of the trail, newest first. */
async function updates(site: Site) {
  return (await site.store.listAuditEvents({
    limit: 100,
    type: "account.updated",
  })).events;
}

testEachStore(
  "an accepted invitation takes the browser's language; a browser without one of ours leaves it unset",
  (store) =>
    withSite(store, async (site, smtp) => {
      await site.account("root@example.com", { role: "admin" });
      const admin = await site.signIn("root@example.com");
      const invite = async (email: string) => {
        const res = await site.call("POST", "/api/users/invite", {
          email,
          name: "Zoë",
          role: "member",
        }, { cookie: admin });
        assertEquals(res.status, 200);
        await res.body?.cancel();
        await site.gatehouse.settled();
        const mail = smtp.received.at(-1)!;
        assertEquals(mail.to, [email]);
        return linkToken(mail.parsed.text ?? "", "/invite");
      };
      const accepted = await site.call("POST", "/api/auth/invite/accept", {
        token: await invite("zoe@example.com"),
        password: NEW_PASSWORD,
      }, { language: SPANISH });
      assertEquals(accepted.status, 200);
      assertEquals((await accepted.json()).locale, "es");
      assertEquals(
        (await store.credentialsByEmail("zoe@example.com"))?.user.locale,
        "es",
      );
      // French and then anything: no language of ours is asked for.
      const other = await site.call("POST", "/api/auth/invite/accept", {
        token: await invite("yves@example.com"),
        password: NEW_PASSWORD,
      }, { language: "fr-FR, *;q=0.5" });
      assertEquals(other.status, 200);
      assertEquals((await other.json()).locale, "");
      assertEquals(
        (await store.credentialsByEmail("yves@example.com"))?.user.locale,
        "",
      );
    }),
);

testEachStore(
  "each sign-in sets the browser's language until the person chooses one; the choice is kept and audited",
  (store) =>
    withSite(store, async (site) => {
      const ada = await site.account("ada@example.com", { name: "Ada" });
      assertEquals(ada.locale, "");
      let cookie = await site.signIn(ada.email, PASSWORD, {
        language: SPANISH,
      });
      assertEquals((await identity(site, cookie)).locale, "es");
      cookie = await site.signIn(ada.email, PASSWORD, { language: ENGLISH });
      assertEquals((await identity(site, cookie)).locale, "en");
      // No language of ours: the last one stays.
      cookie = await site.signIn(ada.email, PASSWORD, { language: "de" });
      assertEquals((await identity(site, cookie)).locale, "en");
      assertEquals(await updates(site), []);

      const res = await site.call("PATCH", "/api/auth/account", {
        locale: "es",
      }, { cookie, language: ENGLISH });
      assertEquals(res.status, 200);
      assertEquals(res.headers.get("cache-control"), "no-store");
      const answered = await res.json();
      assertEquals(answered.locale, "es");
      assertEquals(answered.name, "Ada");
      assertEquals(answered.email, ada.email);
      assertEquals(answered.second_factor, { totp: false, passkeys: 0 });
      const [event, ...more] = await updates(site);
      assertEquals(more, []);
      assertEquals(event?.actorId, ada.id);
      assertEquals(event?.targetId, ada.id);
      assertEquals(event?.detail, { locale: "es" });

      // Chosen: English browsers no longer change it.
      cookie = await site.signIn(ada.email, PASSWORD, { language: ENGLISH });
      assertEquals((await identity(site, cookie)).locale, "es");
      const stored = await store.credentialsByEmail("ada@example.com");
      assertEquals(stored?.user.locale, "es");
      assertEquals(stored?.user.localeChosen, true);

      // The same choice again changes nothing and records nothing.
      const again = await site.call("PATCH", "/api/auth/account", {
        locale: "es",
      }, { cookie });
      assertEquals(again.status, 200);
      await again.body?.cancel();
      assertEquals((await updates(site)).length, 1);
    }),
);

testEachStore(
  "PATCH /api/auth/account: the name follows the name rules, an unknown language is 400 locale_unknown, nothing changes on a refusal",
  (store) =>
    withSite(store, async (site) => {
      const ada = await site.account("ada@example.com", { name: "Ada" });
      const cookie = await site.signIn(ada.email);
      const patch = (body: unknown) =>
        site.call("PATCH", "/api/auth/account", body, { cookie });
      for (const locale of ["fr", "ES", "es-MX", "", "en_GB"]) {
        const res = await patch({ locale, name: "Not Ada" });
        assertEquals(res.status, 400, locale);
        const body = await res.json();
        assertEquals(body.code, "locale_unknown");
        assertEquals(body.meta, { field: "locale" });
      }
      let res = await patch({ name: "   " });
      assertEquals(res.status, 400);
      assertEquals((await res.json()).code, "name_required");
      res = await patch({ name: "x".repeat(500) });
      assertEquals(res.status, 400);
      assertEquals((await res.json()).code, "name_too_long");
      res = await patch({ locale: 7 });
      assertEquals(res.status, 400);
      await res.body?.cancel();
      assertEquals((await store.userById(ada.id))?.name, "Ada");
      assertEquals(await updates(site), []);

      res = await patch({ name: "  Ada Byron  " });
      assertEquals(res.status, 200);
      const answered = await res.json();
      assertEquals(answered.name, "Ada Byron");
      assertEquals(answered.locale, "en");
      assertEquals((await identity(site, cookie)).name, "Ada Byron");
      const [renamed] = await updates(site);
      assertEquals(renamed?.detail, {
        old_name: "Ada",
        new_name: "Ada Byron",
      });
      // The account list finds the new name.
      const page = await store.listUsers({ limit: 10, q: "byron" });
      assertEquals(page.users.map((user) => user.id), [ada.id]);

      // Signed out: 401.
      const anonymous = await site.call("PATCH", "/api/auth/account", {
        locale: "es",
      });
      assertEquals(anonymous.status, 401);
      await anonymous.body?.cancel();
    }),
);

testEachStore(
  "an account's notices are in its own language, whatever the language of the request that causes them",
  (store) =>
    withSite(store, async (site, smtp) => {
      const ada = await site.account("ada@example.com", { name: "Ada" });
      let cookie = await site.signIn(ada.email, PASSWORD, {
        language: ENGLISH,
      });
      const chosen = await site.call("PATCH", "/api/auth/account", {
        locale: "es",
      }, { cookie });
      assertEquals(chosen.status, 200);
      await chosen.body?.cancel();
      // An English browser changes the password: the notice is Spanish.
      const changed = await site.call("POST", "/api/auth/password", {
        current_password: PASSWORD,
        new_password: NEW_PASSWORD,
      }, { cookie, language: ENGLISH });
      assertEquals(changed.status, 204);
      cookie = sessionOf(changed);
      await site.gatehouse.settled();
      const [notice, ...rest] = smtp.received;
      assertEquals(rest, []);
      assertEquals(notice?.to, [ada.email]);
      assertEquals(
        notice?.parsed.subject,
        `Se cambió tu contraseña de ${PRODUCT}`,
      );
      assert((notice?.parsed.text ?? "").includes("Hola, Ada:"));

      // Back to English by choice: the next notice is English, even to a
      // Spanish browser.
      const back = await site.call("PATCH", "/api/auth/account", {
        locale: "en",
      }, { cookie, language: SPANISH });
      assertEquals(back.status, 200);
      await back.body?.cancel();
      const again = await site.call("POST", "/api/auth/password", {
        current_password: NEW_PASSWORD,
        new_password: PASSWORD,
      }, { cookie, language: SPANISH });
      assertEquals(again.status, 204);
      await again.body?.cancel();
      await site.gatehouse.settled();
      assertEquals(smtp.received.length, 2);
      assertEquals(
        smtp.received[1]!.parsed.subject,
        `Your ${PRODUCT} password was changed`,
      );
    }),
);

Deno.test("an invitation to an address that has an account tells its owner in the owner's language", async () => {
  const smtp = await startSmtpServer();
  const site = await mailSite({ smtpPort: smtp.port });
  try {
    await site.account("root@example.com", { role: "admin" });
    await site.account("bea@example.com", { name: "Bea" });
    // Bea's browser asked for Spanish when she signed in.
    await site.signIn("bea@example.com", PASSWORD, { language: SPANISH });
    const admin = await site.signIn("root@example.com");
    const res = await site.call("POST", "/api/users/invite", {
      email: "bea@example.com",
      name: "Bea",
      role: "member",
    }, { cookie: admin, language: ENGLISH });
    assertEquals(res.status, 200);
    await res.body?.cancel();
    await site.gatehouse.settled();
    const [mail, ...more] = smtp.received;
    assertEquals(more, []);
    assertEquals(mail?.to, ["bea@example.com"]);
    assertEquals(mail?.parsed.subject, `Una invitación a ${PRODUCT}`);
  } finally {
    await site.close();
    await smtp.close();
  }
});

Deno.test("a reset link goes in the account's own language; an account without one gets the request's", async () => {
  const smtp = await startSmtpServer();
  const site = await mailSite({ smtpPort: smtp.port });
  try {
    await site.account("bea@example.com", { name: "Bea" });
    await site.account("cy@example.com", { name: "Cy" });
    const cookie = await site.signIn("bea@example.com");
    const chosen = await site.call("PATCH", "/api/auth/account", {
      locale: "es",
    }, { cookie });
    assertEquals(chosen.status, 200);
    await chosen.body?.cancel();
    for (const email of ["bea@example.com", "cy@example.com"]) {
      const res = await site.call("POST", "/api/auth/password-reset", {
        email,
      }, { language: email.startsWith("cy") ? SPANISH : ENGLISH });
      assertEquals(res.status, 202);
      await res.body?.cancel();
    }
    await site.gatehouse.settled();
    const subjects = Object.fromEntries(
      smtp.received.map((mail) => [mail.to[0], mail.parsed.subject]),
    );
    assertEquals(subjects, {
      "bea@example.com": `Restablece tu contraseña de ${PRODUCT}`,
      "cy@example.com": `Restablece tu contraseña de ${PRODUCT}`,
    });
  } finally {
    await site.close();
    await smtp.close();
  }
});

testEachStore(
  "PATCH /api/auth/account: 200 simultaneous changes of name and language lose neither; hostile values get a JSON 4xx, never a 5xx",
  (store) =>
    withSite(store, async (site) => {
      const ada = await site.account("ada@example.com", { name: "Ada" });
      const cookie = await site.signIn(ada.email);
      const patch = (body: unknown) =>
        site.call("PATCH", "/api/auth/account", body, { cookie });
      // Half rename, half choose a language, all at once: each change is
      // decided on the account it commits against, so neither field is
      // put back by a change of the other read before it.
      const names = Array.from({ length: 100 }, (_, i) => `Ada ${i}`);
      const answers = await Promise.all([
        ...names.map((name) => patch({ name })),
        ...names.map((_, i) => patch({ locale: i % 2 === 0 ? "es" : "en" })),
      ]);
      for (const res of answers) {
        assertEquals(res.status, 200);
        await res.body?.cancel();
      }
      await site.gatehouse.settled();
      const after = await identity(site, cookie);
      assert(names.includes(after.name), after.name);
      assert(["en", "es"].includes(after.locale), after.locale);
      const events = await updates(site);
      assert(events.length >= 2 && events.length <= 200, `${events.length}`);
      for (const event of events) {
        assert(
          "new_name" in event.detail || "locale" in event.detail,
          JSON.stringify(event.detail),
        );
      }

      // Hostile names and languages: a JSON 4xx with its code, or (for a
      // name the rules accept) a 200; never a 5xx, and the stored name is
      // always the last one answered.
      let expected = after.name as string;
      for (const value of HOSTILE) {
        for (const body of [{ name: value }, { locale: value }]) {
          const res = await patch(body);
          assert(res.status < 500, `${res.status} for ${JSON.stringify(body)}`);
          const answer = await res.json();
          if (res.status === 200) {
            expected = answer.name;
          } else {
            assertEquals(typeof answer.code, "string");
          }
        }
      }
      assertEquals((await store.userById(ada.id))?.name, expected);
    }),
);
