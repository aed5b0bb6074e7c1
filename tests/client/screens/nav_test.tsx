// usersNavItem: a "Users" link for those who may manage users, nothing for
// anyone else (decided by capability, never by role name).

import assert from "node:assert/strict";
import { usersNavItem } from "@gatehouse/client/screens";
import {
  defaultUser,
  installTestEnvironment,
  userWithRole,
} from "@gatehouse/client/testing";
import { fireEvent, render } from "@testing-library/preact";
import { admin, inSpanish, member } from "./_screens.tsx";

installTestEnvironment();

Deno.test("usersNavItem is a Users link for an account with users.manage", () => {
  const view = render(<nav>{usersNavItem(admin, { href: "/users" })}</nav>);
  const link = view.getByRole("link", { name: "Users" });
  assert.equal(link.getAttribute("href"), "/users");
  assert.equal(link.getAttribute("aria-current"), null);
  assert.ok(link.classList.contains("gh-nav-item"));
});

Deno.test("usersNavItem is null without users.manage, whatever the role is called", () => {
  for (
    const user of [null, undefined, defaultUser, member, userWithRole("admin")]
  ) {
    assert.equal(usersNavItem(user, { href: "/users" }), null);
  }
});

Deno.test("usersNavItem marks the current page and hands clicks to the app", () => {
  const clicks: MouseEvent[] = [];
  const view = render(
    <nav>
      {usersNavItem(admin, {
        href: "/users",
        current: true,
        onClick: (event) => {
          event.preventDefault();
          clicks.push(event);
        },
      })}
    </nav>,
  );
  const link = view.getByRole("link", { name: "Users" });
  assert.equal(link.getAttribute("aria-current"), "page");
  fireEvent.click(link);
  assert.equal(clicks.length, 1);
  assert.equal(clicks[0]!.defaultPrevented, true);
});

Deno.test("usersNavItem is translated", async () => {
  await inSpanish(() => {
    const view = render(<nav>{usersNavItem(admin, { href: "/users" })}</nav>);
    view.getByRole("link", { name: "Usuarios" });
    return Promise.resolve();
  });
});
