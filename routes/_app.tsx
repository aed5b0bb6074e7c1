// The layout around every page (Fresh's _app): the stylesheets, the island
// bundle, a skip link and the page, in the page's language. The session
// the page was rendered with goes to the browser in `data-session`, so the
// islands start from it instead of asking the server again. It is the
// client's `SessionUser` (read from the Identity by the client's reader,
// demo/app.ts), the shape the screens read, never the wire's JSON.

import { __, DEMO } from "../islands/_i18n.ts";
import type { AppProps } from "../demo/render.tsx";

export default function App(props: AppProps) {
  const { Component, assets, settings } = props;
  return (
    <html lang={props.language}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{`${props.title} · Gatehouse`}</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {assets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        <script type="module" src={assets.script} />
      </head>
      <body
        data-session-check={String(settings.sessionCheckInterval)}
        data-session={JSON.stringify(props.session)}
      >
        <a class="demo-skip" href="#main">
          {__("Skip to main content", DEMO)}
        </a>
        <noscript>
          <p class="demo-noscript">
            {__(
              "The Gatehouse demo needs JavaScript to sign in and to change anything.",
              DEMO,
            )}
          </p>
        </noscript>
        <Component />
      </body>
    </html>
  );
}
