// Server-side rendering of pages: a route module's page inside the layout
// (routes/_app.tsx), as a complete HTML document.

import type { ComponentType } from "preact";
import { renderToString } from "preact-render-to-string";
import App from "../routes/_app.tsx";

/** What a page receives. */
export interface PageProps {
  /** The request URL. */
  url: URL;
}

/** A module under routes/: the page and its title. */
export interface PageModule {
  /** The page. */
  default: ComponentType<PageProps>;
  /** The document title's first part. */
  title: string;
}

/** The files every page links. */
export interface Assets {
  /** The island bundle's URL path. */
  script: string;
  /** Stylesheet URL paths, in order. */
  styles: readonly string[];
}

/** Settings the browser side reads from the document. */
export interface ClientSettings {
  /** How often a signed-in page checks that its session still lives, in ms. */
  sessionCheckInterval: number;
}

/** What the layout receives. */
export interface AppProps {
  /** The page, already given its props. */
  Component: ComponentType;
  /** The document title's first part. */
  title: string;
  /** The files to link. */
  assets: Assets;
  /** Settings for the browser side. */
  settings: ClientSettings;
}

const HTML_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  // Pages hold no account data (islands fetch it), but always revalidate so
  // a new deployment's bundle path is picked up.
  "cache-control": "no-cache",
};

/**
 * Renders `page` for `url` inside the layout.
 *
 * @param page The route module.
 * @param url The request URL.
 * @param assets Script and stylesheets.
 * @param settings Settings for the browser side.
 * @param status The HTTP status; 200 by default.
 * @returns The HTML answer.
 */
export function renderPage(
  page: PageModule,
  url: URL,
  assets: Assets,
  settings: ClientSettings,
  status = 200,
): Response {
  const Page = page.default;
  const Component = () => <Page url={url} />;
  const html = renderToString(
    <App
      Component={Component}
      title={page.title}
      assets={assets}
      settings={settings}
    />,
  );
  return new Response(`<!DOCTYPE html>${html}`, {
    status,
    headers: HTML_HEADERS,
  });
}
