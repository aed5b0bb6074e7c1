// The two notices a sign-in can cause (DESIGN.md §14, §15), over real HTTP
// to a real SMTP server (npm:smtp-server, read back with npm:mailparser),
// with a clock the test moves and client addresses it picks
// (`x-forwarded-for` behind a trusted proxy on loopback):
//
// - `new_sign_in`: a completed sign-in from a browser (its trusted-device
//   cookie, else its label) or a network (IPv4 /24, IPv6 /64) the account
//   has not used in 90 days; never for its first sign-in, nor for a known
//   browser on a known network, nor for a refused sign-in; once each.
// - `account_locked`: one to the owner of an existing account per lock
//   window of the account lock, in the owner's language, none for an
//   address without an account; the lock until a reset says so.

import { assert, assertEquals, assertMatch } from "../fixtures/assert.ts";
import {
  FIREFOX,
  FIREFOX_LABEL,
  mailSite,
  partsOf,
  PASSWORD,
  PRODUCT,
} from "../fixtures/mail.ts";
import { KEY_A } from "../fixtures/lock_server.ts";
import {
  type Received,
  startSmtpServer,
  type TestSmtpServer,
} from "../fixtures/smtp.ts";
import { CONSECUTIVE_FAILURE_LIMIT } from "../../server/core/_account_lock.ts";
import { DEVICE_COOKIE } from "../../server/core/_device_cookie.ts";
import type { GatehouseOptions } from "../../mod.ts";

type Site = Awaited<ReturnType<typeof mailSite>>;

const DAY = 24 * 60 * 60 * 1000;
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const SAFARI =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";
const ADA = { email: "ada@example.com", name: "Ada Lovelace" };
const NEW_SIGN_IN = `New sign-in to your ${PRODUCT} account`;

interface Browser {
  userAgent?: string;
  from: string;
  /** The trusted-device cookie pair to present. */
  device?: string | null;
  language?: string;
}

/** A site whose clock the test moves, behind a trusted proxy. */
async function withSite(
  fn: (
    site: Site,
    smtp: TestSmtpServer,
    clock: { now: number },
  ) => Promise<void>,
  more: Partial<GatehouseOptions> = {},
) {
  const smtp = await startSmtpServer();
  const clock = { now: Date.now() };
  const site = await mailSite({
    smtpPort: smtp.port,
    gatehouse: {
      now: () => clock.now,
      trustedProxy: {
        header: "x-forwarded-for",
        addresses: ["127.0.0.1", "::1"],
      },
      deviceKeys: [KEY_A],
      // The address limiter is not what these tests look at.
      rateLimit: { maxFailures: 1000 },
      ...more,
    },
  });
  try {
    await fn(site, smtp, clock);
  } finally {
    await site.close();
    await smtp.close();
  }
}

/** Signs in from `browser`: the answer's status and device cookie pair. */
async function signIn(
  site: Site,
  browser: Browser,
  password = PASSWORD,
  email = ADA.email,
): Promise<{ status: number; device: string | null }> {
  const res = await site.call("POST", "/api/auth/login", {
    email,
    password,
  }, {
    userAgent: browser.userAgent ?? FIREFOX,
    from: browser.from,
    cookie: browser.device ?? null,
    ...(browser.language === undefined ? {} : { language: browser.language }),
  });
  await res.body?.cancel();
  const device = res.headers.getSetCookie()
    .find((c) => c.startsWith(`${DEVICE_COOKIE}=`))?.split(";")[0] ?? null;
  return { status: res.status, device };
}

/** The messages since the last look, once background work has landed. */
function inbox(site: Site, smtp: TestSmtpServer) {
  let seen = 0;
  return async (): Promise<Received[]> => {
    await site.gatehouse.settled();
    const fresh = smtp.received.slice(seen);
    seen = smtp.received.length;
    return fresh;
  };
}

/** One `new_sign_in` notice to Ada naming `label` and `ip`, with no link. */
function assertNewSignIn(mails: Received[], label: string, ip: string) {
  assertEquals(mails.map((m) => m.parsed.subject), [NEW_SIGN_IN]);
  const mail = mails[0]!;
  assertEquals(mail.to, [ADA.email]);
  const { text, html } = partsOf(mail);
  for (const part of [text, html]) {
    assert(part.includes(label), `names the browser ${label}`);
    assert(part.includes(ip), `names the address ${ip}`);
    assert(!/https?:\/\//.test(part), "carries no link");
  }
  assertMatch(text, /^Hello Ada Lovelace,$/m);
}

Deno.test("new_sign_in: none for the first sign-in or a known browser on a known network; one for a new browser and one for a new network, each once", async () => {
  await withSite(async (site, smtp) => {
    await site.account(ADA.email, { name: ADA.name });
    const arrived = inbox(site, smtp);
    const home = { from: "203.0.113.5" };
    assertEquals((await signIn(site, home)).status, 200);
    assertEquals(await arrived(), [], "the first sign-in");
    // The same browser from the same /24.
    assertEquals((await signIn(site, { from: "203.0.113.77" })).status, 200);
    assertEquals(await arrived(), []);

    // A new browser on a known network.
    assertEquals(
      (await signIn(site, { ...home, userAgent: CHROME })).status,
      200,
    );
    assertNewSignIn(await arrived(), "Chrome on Windows", "203.0.113.5");
    // Known now.
    assertEquals(
      (await signIn(site, { from: "203.0.113.9", userAgent: CHROME })).status,
      200,
    );
    assertEquals(await arrived(), []);

    // A known browser on a new network.
    assertEquals((await signIn(site, { from: "198.51.100.7" })).status, 200);
    assertNewSignIn(await arrived(), FIREFOX_LABEL, "198.51.100.7");
    assertEquals((await signIn(site, { from: "198.51.100.8" })).status, 200);
    assertEquals(await arrived(), []);

    // IPv6 networks are /64s.
    assertEquals((await signIn(site, { from: "2001:db8:1:2::5" })).status, 200);
    // Recorded in the canonical form of the client address.
    assertNewSignIn(await arrived(), FIREFOX_LABEL, "2001:db8:1:2:0:0:0:5");
    assertEquals(
      (await signIn(site, { from: "2001:db8:1:2:ffff::9" })).status,
      200,
    );
    assertEquals(await arrived(), []);
    assertEquals((await signIn(site, { from: "2001:db8:1:3::5" })).status, 200);
    assertEquals((await arrived()).length, 1);

    // A refused sign-in from a new browser and network sends nothing.
    const wrong = await signIn(
      site,
      { from: "192.0.2.44", userAgent: SAFARI },
      "not the password",
    );
    assertEquals(wrong.status, 401);
    assertEquals(await arrived(), []);
    // No other kind of mail went out.
    assertEquals(site.gatehouse.mail.failed, 0);
  });
});

Deno.test("new_sign_in: a browser and network unused for 90 days are new again; a young account's first sign-in sends none, an old account's first recorded one does", async () => {
  await withSite(async (site, smtp, clock) => {
    await site.account(ADA.email, { name: ADA.name });
    // An account older than the trail's 90 days, never signed in since.
    await site.account("old@example.com", {
      name: "Old Timer",
      createdAt: clock.now - 200 * DAY,
    });
    const arrived = inbox(site, smtp);
    const home = { from: "203.0.113.5" };
    assertEquals((await signIn(site, home)).status, 200);
    clock.now += DAY;
    assertEquals((await signIn(site, home)).status, 200);
    assertEquals(await arrived(), []);
    clock.now += 89 * DAY;
    assertEquals((await signIn(site, home)).status, 200);
    assertEquals(await arrived(), [], "used 89 days ago");
    clock.now += 91 * DAY;
    assertEquals((await signIn(site, home)).status, 200);
    assertNewSignIn(await arrived(), FIREFOX_LABEL, "203.0.113.5");

    const old = await signIn(site, home, PASSWORD, "old@example.com");
    assertEquals(old.status, 200);
    const [mail, ...more] = await arrived();
    assertEquals(more, []);
    assertEquals(mail?.to, ["old@example.com"]);
    assertEquals(mail?.parsed.subject, NEW_SIGN_IN);
  });
});

Deno.test("new_sign_in: a browser is its trusted-device cookie when it presents one, else its label", async () => {
  await withSite(async (site, smtp) => {
    await site.account(ADA.email, { name: ADA.name });
    const arrived = inbox(site, smtp);
    const from = "203.0.113.5";
    assertEquals((await signIn(site, { from })).status, 200);
    assertEquals(await arrived(), []);
    // Chrome, new: its first sign-in gives it a device cookie.
    const chrome = await signIn(site, { from, userAgent: CHROME });
    assertEquals(chrome.status, 200);
    assert(chrome.device !== null);
    assertNewSignIn(await arrived(), "Chrome on Windows", from);
    // Chrome with its cookie: the sign-in that issued it.
    const again = await signIn(site, {
      from,
      userAgent: CHROME,
      device: chrome.device,
    });
    assertEquals(again.status, 200);
    assertEquals(await arrived(), []);
    // The same device under another label (an updated browser): known by
    // its cookie.
    const relabelled = await signIn(site, {
      from,
      userAgent: SAFARI,
      device: chrome.device,
    });
    assertEquals(relabelled.status, 200);
    assertEquals(await arrived(), []);
    // That label without the cookie is another browser: new.
    assertEquals(
      (await signIn(site, { from, userAgent: SAFARI })).status,
      200,
    );
    assertNewSignIn(await arrived(), "Safari on macOS", from);
    const stored = (await site.store.listAuditEvents({
      limit: 100,
      type: "login.succeeded",
    })).events;
    assertEquals(stored.length, 5);
    // The events name the device by a digest, never the cookie.
    const devices = stored.map((e) => e.detail.device ?? null);
    assertEquals(devices.filter((d) => d !== null).length, 2);
    for (const device of devices) {
      if (device === null) continue;
      assertMatch(String(device), /^[A-Za-z0-9_-]{43}$/);
      assert(!chrome.device.includes(String(device)));
    }
  });
});

/** `n` wrong passwords for `email`, each from a client address of its own. */
async function guesses(site: Site, n: number, email = ADA.email, from = 0) {
  const statuses: number[] = [];
  for (let i = from; i < from + n; i++) {
    const answer = await signIn(
      site,
      { from: `198.18.${i >> 8 & 255}.${i & 255}`, userAgent: CHROME },
      `wrong guess ${i}`,
      email,
    );
    statuses.push(answer.status);
  }
  return statuses;
}

Deno.test("account_locked: one notice to the owner per lock window, in the owner's language, naming the last attempt; none for an address without an account", async () => {
  await withSite(async (site, smtp, clock) => {
    await site.account(ADA.email, { name: ADA.name });
    const arrived = inbox(site, smtp);
    // Ada chooses Spanish; the attackers' browsers ask for English.
    const cookie = await site.signIn(ADA.email, PASSWORD, {
      from: "203.0.113.5",
    });
    const chosen = await site.call("PATCH", "/api/auth/account", {
      locale: "es",
    }, { cookie, from: "203.0.113.5" });
    assertEquals(chosen.status, 200);
    await chosen.body?.cancel();
    assertEquals(await arrived(), []);

    assertEquals(await guesses(site, 3), [401, 401, 401]);
    assertEquals(await arrived(), [], "no lock yet");
    assertEquals(await guesses(site, 5, ADA.email, 3), [
      429,
      429,
      429,
      429,
      429,
    ]);
    const mails = await arrived();
    assertEquals(mails.length, 1, "one notice for the window");
    const mail = mails[0]!;
    assertEquals(mail.to, [ADA.email]);
    assertEquals(
      mail.parsed.subject,
      `Los inicios de sesión en tu cuenta de ${PRODUCT} están en pausa`,
    );
    const { text, html } = partsOf(mail);
    for (const part of [text, html]) {
      assert(part.includes("Chrome on Windows"));
      assert(/198\.18\.0\.[3-7]/.test(part), "names the refused attempt");
      assert(!/https?:\/\//.test(part), "carries no link");
      assert(!part.includes("wrong guess"), "no guessed password");
    }
    assert(text.includes("navegadores que no conoce"));

    // More refusals in the same window: nothing more.
    assertEquals(await guesses(site, 3, ADA.email, 20), [429, 429, 429]);
    assertEquals(await arrived(), []);

    // An address without an account locks alike and mails no one.
    assertEquals(await guesses(site, 4, "nobody@example.com", 40), [
      401,
      401,
      401,
      429,
    ]);
    assertEquals(await arrived(), []);

    // The next window's lock: one more notice.
    clock.now += 16 * 60_000;
    assertEquals(await guesses(site, 4, ADA.email, 60), [401, 401, 401, 429]);
    assertEquals((await arrived()).length, 1);
    const locked = await site.store.listAuditEvents({
      limit: 100,
      type: "login.locked",
    });
    assertEquals(locked.events.length, 3);
  }, { limits: { accountLockThreshold: 3 } });
});

Deno.test("account_locked: the lock after too many failures in a row says sign-ins wait for a reset", async () => {
  await withSite(async (site, smtp, clock) => {
    await site.account(ADA.email, { name: ADA.name });
    const arrived = inbox(site, smtp);
    // Three failures per window, never a refusal, until the consecutive
    // failures reach the limit.
    for (let i = 0; i < CONSECUTIVE_FAILURE_LIMIT; i += 3) {
      const n = Math.min(3, CONSECUTIVE_FAILURE_LIMIT - i);
      assertEquals(await guesses(site, n, ADA.email, i), Array(n).fill(401));
      clock.now += 16 * 60_000;
    }
    assertEquals(await arrived(), []);
    // Even Ada's right password is refused now.
    const refused = await signIn(site, { from: "203.0.113.5" });
    assertEquals(refused.status, 429);
    const mails = await arrived();
    assertEquals(mails.map((m) => m.parsed.subject), [
      `Sign-ins to your ${PRODUCT} account are paused`,
    ]);
    const { text } = partsOf(mails[0]!);
    assert(text.includes("paused until its password is reset"), text);
    assert(!text.includes("Browsers you signed in with before"));
  }, { limits: { accountLockThreshold: 3 } });
});
