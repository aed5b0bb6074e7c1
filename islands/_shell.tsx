// The frame of the signed-in pages (a helper, not an island): the gate with
// the ready-made login screen, then the header with the navigation and the
// page's screen. Every page's <main> is the skip link's target.

import { AuthGate, useSession } from "@gatehouse/client";
import { LoginScreen, usersNavItem } from "@gatehouse/client/screens";
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { __, DEMO } from "./_i18n.ts";

/** The product name on the screens. */
export const BRAND = "Gatehouse";

/** Which navigation item is the current page. */
export type Section = "account" | "users";

/** A quiet status line while something loads; in a titled card when given a title. */
export function Loading(props: { title?: string }) {
  const status = (
    <p class="demo-loading" role="status" aria-busy="true">
      {__("Loading…", DEMO)}
    </p>
  );
  if (props.title === undefined) return status;
  return (
    <section class="gh gh-screen" data-gh-screen="loading">
      <div class="gh-card">
        <p class="gh-brand">{BRAND}</p>
        <h1 class="gh-title">{props.title}</h1>
        {status}
      </div>
    </section>
  );
}

/** The page's main region, which the skip link reaches. */
export function Main(
  props: { center?: boolean; children: ComponentChildren },
) {
  return (
    <main
      id="main"
      class={props.center ? "demo-center" : "demo-main"}
      tabIndex={-1}
    >
      {props.children}
    </main>
  );
}

function Frame(props: { current: Section; children: ComponentChildren }) {
  const user = useSession();
  return (
    <>
      <header class="demo-header">
        <a class="demo-brand" href="/">{BRAND}</a>
        <nav class="demo-nav" aria-label={__("Main navigation", DEMO)}>
          <a
            class="gh-nav-item"
            href="/"
            aria-current={props.current === "account" ? "page" : undefined}
          >
            {__("Account", DEMO)}
          </a>
          {usersNavItem(user, {
            href: "/users",
            current: props.current === "users",
          })}
        </nav>
      </header>
      <Main>{props.children}</Main>
    </>
  );
}

/**
 * The gate around a page: the login screen when signed out ("Forgot
 * password?" links to /forgot), the header and `children` when signed in.
 */
export function Shell(
  props: { current: Section; children: ComponentChildren },
) {
  return (
    <AuthGate
      loadingScreen={() => <Loading />}
      loginScreen={(onLogin) => (
        <Main center>
          <LoginScreen
            brand={BRAND}
            onLogin={onLogin}
            forgotPasswordHref="/forgot"
          />
        </Main>
      )}
    >
      <Frame current={props.current}>{props.children}</Frame>
    </AuthGate>
  );
}

/**
 * The `token` of the page's fragment (`#token=…`), read in the browser once
 * mounted: null until then (the server never sees fragments, so its markup
 * is the loading state), "" when the link carries none.
 */
export function useFragmentToken(): string | null {
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    setToken(new URLSearchParams(location.hash.slice(1)).get("token") ?? "");
  }, []);
  return token;
}
