// Shared pieces of the screen tests: a query client that does not retry,
// rendering signed in, typing into labelled fields, and the accessibility
// checks every form of the screens must pass.

import assert from "node:assert/strict";
import {
  createAuthQueryClient,
  type SessionUser,
  USERS_MANAGE,
} from "@gatehouse/client";
import { setScreensLocale } from "@gatehouse/client/screens";
import { seedSession, userWithCapabilities } from "@gatehouse/client/testing";
import { type QueryClient, QueryClientProvider } from "@tanstack/preact-query";
import {
  fireEvent,
  render,
  type RenderResult,
  waitFor,
} from "@testing-library/preact";
import type { ComponentChildren } from "preact";

/** An administrator of the demo's registry: may manage users, grants admin and member. */
export const admin: SessionUser = userWithCapabilities(
  "admin",
  [USERS_MANAGE],
  ["admin", "member"],
);

/** A member of the demo's registry: no capability, grants nothing. */
export const member: SessionUser = userWithCapabilities("member", [], []);

/** A client whose queries fail at once. */
export function quickClient(): QueryClient {
  return createAuthQueryClient({
    defaultOptions: { queries: { retry: false } },
  });
}

/** Renders `ui` inside a provider, signed in as `user` (or signed out when null). */
export function renderWith(
  ui: ComponentChildren,
  user: SessionUser | null,
  client: QueryClient = quickClient(),
): RenderResult & { client: QueryClient } {
  if (user !== null) seedSession(client, user);
  const view = render(
    <QueryClientProvider client={client}>{ui}</QueryClientProvider>,
  );
  return Object.assign(view, { client });
}

/** Types `value` into the field labelled `label`. */
export function type(view: RenderResult, label: string, value: string): void {
  fireEvent.input(view.getByLabelText(label), { target: { value } });
}

/** The text of the form-level alert of `container` (the first one). */
export function alertText(container: Element): string {
  return container.querySelector('[role="alert"]')?.textContent ?? "";
}

/**
 * Asserts that the control labelled `label` is marked invalid and that its
 * aria-describedby names an element holding `message`.
 */
export function assertFieldError(
  view: RenderResult,
  label: string,
  message: string,
): void {
  const control = view.getByLabelText(label);
  assert.equal(
    control.getAttribute("aria-invalid"),
    "true",
    `${label} invalid`,
  );
  const ids = (control.getAttribute("aria-describedby") ?? "").split(" ");
  const texts = ids.map((id) => document.getElementById(id)?.textContent);
  assert.ok(
    texts.includes(message),
    `${label} is described by ${JSON.stringify(texts)}, not "${message}"`,
  );
}

/** Waits until the control labelled `label` shows `message` as its error. */
export async function findFieldError(
  view: RenderResult,
  label: string,
  message: string,
): Promise<void> {
  await waitFor(() => assertFieldError(view, label, message));
}

/** Asserts that no control of `container` is marked invalid. */
export function assertNoFieldErrors(container: Element): void {
  assert.equal(container.querySelectorAll('[aria-invalid="true"]').length, 0);
}

/**
 * The accessibility rules of every screen: each input and select has an id
 * and a non-empty <label for>; every aria-describedby and aria-labelledby
 * names elements that exist; every button has a type and a name; forms
 * carry an always-present alert region.
 */
export function assertAccessible(container: Element): void {
  for (const control of container.querySelectorAll("input, select")) {
    const id = control.getAttribute("id");
    assert.ok(id, `${control.outerHTML} has an id`);
    const label = container.querySelector(`label[for="${id}"]`);
    assert.ok(label?.textContent?.trim(), `${control.outerHTML} has a label`);
  }
  for (const attribute of ["aria-describedby", "aria-labelledby"]) {
    for (const element of container.querySelectorAll(`[${attribute}]`)) {
      for (const id of element.getAttribute(attribute)!.split(" ")) {
        assert.ok(
          document.getElementById(id),
          `${attribute} "${id}" of ${element.tagName} exists`,
        );
      }
    }
  }
  for (const button of container.querySelectorAll("button")) {
    assert.match(button.getAttribute("type") ?? "", /^(button|submit)$/);
    assert.ok(
      (button.getAttribute("aria-label") ?? button.textContent ?? "").trim(),
      "every button has a name",
    );
  }
  for (const form of container.querySelectorAll("form:not([role=search])")) {
    assert.ok(
      form.querySelector('[role="alert"]'),
      "each form has an alert region",
    );
  }
}

/** Runs `fn` with the screens in Spanish, then back in English. */
export async function inSpanish(fn: () => Promise<void>): Promise<void> {
  assert.ok(await setScreensLocale("es"));
  try {
    await fn();
  } finally {
    await setScreensLocale("en");
  }
}

/**
 * Waits until the control labelled `label` has the focus. (Compares with
 * `===`: node's assert would describe two DOM elements at great length.)
 */
export async function findFocus(
  view: RenderResult,
  label: string,
): Promise<void> {
  await waitFor(() =>
    assert.ok(
      document.activeElement === view.getByLabelText(label),
      `focus on ${label}, not ${document.activeElement?.id}`,
    )
  );
}
