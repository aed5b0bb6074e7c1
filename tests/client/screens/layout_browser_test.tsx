// The screens in real Chromium at 320 px wide, in English and in Spanish
// (whose words run longer): nothing sticks out sideways, and keyboard focus
// draws the stylesheet's ring. The screens are rendered to HTML on the
// server side of the test with the stylesheet inlined.

import assert from "node:assert/strict";
import type { SessionUser } from "@gatehouse/client";
import {
  AccountPanel,
  InviteScreen,
  LoginScreen,
  NewUserScreen,
  RequestResetScreen,
  ResetPasswordScreen,
  SetPasswordScreen,
  setScreensLocale,
  stylesheet,
  usersNavItem,
  UsersScreen,
} from "@gatehouse/client/screens";
import {
  accountOf,
  seedSession,
  userWithCapabilities,
  userWithRole,
} from "@gatehouse/client/testing";
import { QueryClientProvider } from "@tanstack/preact-query";
import type { VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { browserTest } from "../../fixtures/browser.ts";
import { quickClient } from "./_screens.tsx";

const admin: SessionUser = {
  ...userWithCapabilities("admin", ["users.manage"], ["admin", "member"]),
  name: "Administradora Principal del Sistema",
  email: "administradora.principal@ejemplo-muy-largo.example.com",
};
const users = [
  accountOf(admin),
  accountOf(userWithRole("member"), {
    name: "Bartholomew Featherstonehaugh-Cholmondeley",
    email: "bartholomew.featherstonehaugh-cholmondeley@example.com",
  }),
  accountOf(userWithRole("editor"), { name: "Eve", disabled: true }),
];

/** Each screen as first shown; the list with a next page, so paging shows. */
function screens(): Record<string, VNode> {
  const client = quickClient();
  seedSession(client, admin);
  client.setQueryData(["gatehouse", "users", {
    q: "",
    cursor: null,
    limit: 20,
    sort: "created",
  }], {
    users,
    nextCursor: "next",
    total: 45,
    sorted: true,
  });
  const signedIn = (ui: VNode) => (
    <QueryClientProvider client={client}>{ui}</QueryClientProvider>
  );
  return {
    "login": (
      <LoginScreen
        brand="Acme"
        onLogin={() => {}}
        onForgotPassword={() => {}}
      />
    ),
    "account": signedIn(<AccountPanel />),
    "users": signedIn(
      <UsersScreen
        newUserRender={
          <a class="gh-button gh-button-primary" href="/users/new">
            New user
          </a>
        }
      />,
    ),
    "new-user": signedIn(
      <NewUserScreen onCreated={() => {}} onCancel={() => {}} />,
    ),
    "invite": signedIn(<InviteScreen onCancel={() => {}} />),
    "set-password": signedIn(
      <SetPasswordScreen brand="Acme" token="t" onAccepted={() => {}} />,
    ),
    "set-password dead link": signedIn(
      <SetPasswordScreen brand="Acme" token="" onAccepted={() => {}} />,
    ),
    "request-reset": <RequestResetScreen onBack={() => {}} />,
    "reset-password": <ResetPasswordScreen token="t" onDone={() => {}} />,
    "reset-password dead link": (
      <ResetPasswordScreen
        token=""
        onDone={() => {}}
        onRequestNew={() => {}}
      />
    ),
    "nav": <nav>{usersNavItem(admin, { href: "/users" })}</nav>,
  };
}

function page(body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{margin:0}</style><style>${stylesheet}</style></head>
<body>${body}</body></html>`;
}

browserTest(
  "the screens fit a 320 px wide screen, in English and in Spanish",
  async (browser) => {
    const context = await browser.newContext({
      viewport: { width: 320, height: 640 },
    });
    for (const locale of ["en", "es"]) {
      await setScreensLocale(locale);
      try {
        for (const [name, ui] of Object.entries(screens())) {
          const tab = await context.newPage();
          await tab.setContent(page(renderToString(ui)));
          const overflow = await tab.evaluate(() => {
            const width = document.documentElement.clientWidth;
            const wide = [...document.querySelectorAll("body *")]
              .filter((e) => e.getBoundingClientRect().right > width + 0.5)
              .map((e) => `${e.tagName}.${e.className}`);
            return {
              rows: document.querySelectorAll(".gh-row").length,
              pager: document.querySelector(".gh-pager") !== null,
              screen:
                document.querySelector("[data-gh-screen], .gh-nav-item") !==
                  null,
              width,
              scrollWidth: document.documentElement.scrollWidth,
              wide,
            };
          });
          assert.ok(overflow.screen, `${locale} ${name} rendered`);
          if (name === "users") {
            assert.equal(overflow.rows, 3, "the list is shown, not loading");
            assert.ok(overflow.pager);
          }
          assert.equal(overflow.width, 320);
          assert.deepEqual(
            overflow.wide,
            [],
            `${locale} ${name}: elements past the edge`,
          );
          assert.ok(
            overflow.scrollWidth <= 320,
            `${locale} ${name}: scrolls sideways (${overflow.scrollWidth}px)`,
          );
          await tab.close();
        }
      } finally {
        await setScreensLocale("en");
      }
    }
    await context.close();
  },
);

browserTest(
  "keyboard focus draws a visible ring on the screens' controls",
  async (browser) => {
    const tab = await browser.newPage({
      viewport: { width: 320, height: 640 },
    });
    await tab.setContent(
      page(
        renderToString(
          <LoginScreen
            brand="Acme"
            onLogin={() => {}}
            onForgotPassword={() => {}}
          />,
        ),
      ),
    );
    for (const expected of ["INPUT", "INPUT", "BUTTON", "BUTTON"]) {
      await tab.keyboard.press("Tab");
      const focus = await tab.evaluate(() => {
        const element = document.activeElement!;
        const style = getComputedStyle(element);
        return {
          tag: element.tagName,
          outline: style.outlineStyle,
          width: parseFloat(style.outlineWidth),
          color: style.outlineColor,
        };
      });
      assert.equal(focus.tag, expected);
      assert.equal(focus.outline, "solid", `${expected} shows a ring`);
      assert.ok(focus.width >= 2, `${expected}'s ring is ${focus.width}px`);
      assert.equal(focus.color, "rgb(11, 87, 208)");
    }
    await tab.close();
  },
);
