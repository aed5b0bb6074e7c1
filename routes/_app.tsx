// The layout around every page (Fresh's _app): the stylesheets, the island
// bundle and the page. Everything visible is drawn by the page's island.

import type { AppProps } from "../demo/render.tsx";

export default function App(props: AppProps) {
  const { Component, assets, settings } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · Gatehouse`}</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {assets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        <script type="module" src={assets.script} />
      </head>
      <body data-session-check={String(settings.sessionCheckInterval)}>
        <noscript>
          <p class="demo-after">The Gatehouse demo needs JavaScript.</p>
        </noscript>
        <Component />
      </body>
    </html>
  );
}
