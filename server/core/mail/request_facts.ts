// What a notice needs of the request that caused it, beyond what the audit
// event stores: the request's Accept-Language (the notice's language), when
// its answer has been written (the notice goes out after it, never on its
// path), and its trusted-device cookie (the browser a sign-in's
// `login.succeeded` event names, for the `new_sign_in` notice). The event keeps only what is stored; these facts ride beside
// the client meta a request's events are made from, in a weak map of the
// context, so nothing of them is ever written to a store (a ClientMeta is
// spread into session records, so no field can be added to it) and they
// are dropped with the request.

import { readCookie } from "../../http/cookie.ts";
import { DEVICE_COOKIE } from "../_device_cookie.ts";

/** What a notice needs of its request. */
export interface RequestFacts {
  /** The `Accept-Language` header; null when absent. */
  readonly acceptLanguage: string | null;
  /** Settles when the answer was handed to the connection (`info.completed`). */
  readonly completed: Promise<void> | undefined;
  /** The trusted-device cookie's value (DESIGN.md §15); null when absent. */
  readonly deviceCookie: string | null;
}

/** Notes the facts of requests by the client meta made from each. */
export interface RequestFactsBook {
  /** Notes the facts of `req` under `meta` and hands `meta` back. */
  note<T extends object>(
    meta: T,
    req: Request,
    info: Deno.ServeHandlerInfo | undefined,
  ): T;
  /** The facts noted under `meta`, if any. */
  of(meta: object): RequestFacts | undefined;
}

/** A book of one context. */
export function requestFactsBook(): RequestFactsBook {
  const book = new WeakMap<object, RequestFacts>();
  return {
    note(meta, req, info) {
      book.set(meta, {
        acceptLanguage: req.headers.get("accept-language"),
        completed: info?.completed,
        deviceCookie: readCookie(req.headers.get("cookie"), DEVICE_COOKIE),
      });
      return meta;
    },
    of: (meta) => book.get(meta),
  };
}
