// A plain URLPattern route table: `{method, pattern, handler}` records,
// first match wins. The handlers have @std/http's route shape, so the
// Gatehouse handlers mount as they are.

import type { Handler } from "@gatehouse/server";

/** One route: a method, a pattern and the handler it runs. */
export interface Route {
  /** `GET`, `POST`, … (a `GET` route also answers `HEAD`). */
  method: string;
  /** Matched against the whole request URL. */
  pattern: URLPattern;
  /** Receives the match as its second argument. */
  handler: Handler;
}

/** Shorthand for a route on a pathname pattern such as `/api/users/:id`. */
export function route(
  method: string,
  pathname: string,
  handler: Handler,
): Route {
  return { method, pattern: new URLPattern({ pathname }), handler };
}

/**
 * Dispatches to the first route whose method and pattern match.
 *
 * @param routes The table.
 * @param fallback Answers requests no route matches.
 * @returns The handler.
 */
export function router(routes: readonly Route[], fallback: Handler): Handler {
  const table = [...routes];
  return function dispatch(req, _params, info) {
    const method = req.method === "HEAD" ? "GET" : req.method;
    for (const entry of table) {
      if (entry.method !== method) continue;
      const match = entry.pattern.exec(req.url);
      if (match) return entry.handler(req, match, info);
    }
    return fallback(req, undefined, info);
  };
}
