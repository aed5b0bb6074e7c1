// Server-side rendering of pages: a route module's page inside the layout
// (routes/_app.tsx), as a complete HTML document, in the request's language
// and with the session the request carries, so the first markup is the
// page as it will look (no English flash, no loading state, no probe of
// the session from the browser).

import type { SessionUser } from "@gatehouse/client";
import type { ComponentType } from "preact";
import { renderToString } from "preact-render-to-string";
import { withScreensI18n } from "@gatehouse/client/screens";
import { demoI18n } from "../islands/_i18n.ts";
import App from "../routes/_app.tsx";
import { requestLanguage } from "./locale.ts";

/** What a page receives. */
export interface PageProps {
  /** The request URL. */
  url: URL;
  /** The signed-in account, or null. */
  session: SessionUser | null;
}

/** A module under routes/: the page and its title. */
export interface PageModule {
  /** The page. */
  default: ComponentType<PageProps>;
  /** The document title's first part, in the page's language. */
  title: () => string;
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
  /** The page's language, e.g. `es-ES`. */
  language: string;
  /** The session the page was rendered with, handed to the browser. */
  session: SessionUser | null;
  /** The files to link. */
  assets: Assets;
  /** Settings for the browser side. */
  settings: ClientSettings;
}

const HTML_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  // The page carries the signed-in account: never stored (DESIGN.md §4).
  "cache-control": "no-store",
  "vary": "accept-language, cookie",
};

/** The request a page answers. */
export interface PageRequest {
  /** The request URL. */
  url: URL;
  /** Its Accept-Language header. */
  acceptLanguage: string | null;
  /** The signed-in account, or null. */
  session: SessionUser | null;
}

/**
 * Renders `page` for a request inside the layout.
 *
 * @param page The route module.
 * @param request URL, language and session.
 * @param assets Script and stylesheets.
 * @param settings Settings for the browser side.
 * @param status The HTTP status; 200 by default.
 * @returns The HTML answer.
 */
export async function renderPage(
  page: PageModule,
  request: PageRequest,
  assets: Assets,
  settings: ClientSettings,
  status = 200,
): Promise<Response> {
  const language = await requestLanguage(request.acceptLanguage);
  // An instance of its own for this page: every word of it (the demo's and
  // the screens') comes from here, whatever language other pages of the
  // process are rendered in at the same time.
  const i18n = await demoI18n(language);
  const Page = page.default;
  const Component = () => <Page url={request.url} session={request.session} />;
  const html = withScreensI18n(i18n, () =>
    renderToString(
      <App
        Component={Component}
        title={page.title()}
        language={language}
        session={request.session}
        assets={assets}
        settings={settings}
      />,
    ));
  return new Response(`<!DOCTYPE html>${html}`, {
    status,
    headers: HTML_HEADERS,
  });
}
