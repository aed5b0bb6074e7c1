// Any other path: a card like the sign-in page's, in the page's language.

import { __, DEMO } from "../islands/_i18n.ts";
import { BRAND } from "../islands/_shell.tsx";

export const title = () => __("Page not found", DEMO);

export default function NotFound() {
  return (
    <main id="main" class="demo-center" tabIndex={-1}>
      <section class="gh gh-screen" data-gh-screen="not-found">
        <div class="gh-card">
          <p class="gh-brand">{BRAND}</p>
          <h1 class="gh-title">{__("Page not found", DEMO)}</h1>
          <p>{__("There is no page at this address.", DEMO)}</p>
          <p class="gh-card-footer">
            <a class="gh-button gh-button-link" href="/">
              {__("Go to the start page", DEMO)}
            </a>
          </p>
        </div>
      </section>
    </main>
  );
}
