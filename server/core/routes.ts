/**
 * Routes as data: `{method, path, pattern, handler}` records, one per
 * operation of the contract (`OPERATIONS` of `@gatehouse/contract`), each
 * handler wrapped in what the contract says it sits behind: the
 * cross-origin guard on writes, its guard, and behind the guard its rate
 * limiter. The module exports no router: the records mount on a plain
 * `URLPattern` table, `@std/http`'s `route()`, Hono, Oak or Fresh.
 *
 * @module
 */

import {
  type Guard,
  type Limiter,
  type Method,
  OPERATION_NAMES,
  type OperationName,
  OPERATIONS,
} from "@gatehouse/contract";
import type { GatehouseContext } from "./context.ts";
import { contractChecks, type Operation, routeGuard } from "./operation.ts";
import { withBrowserLabels } from "../http/_client_meta.ts";
import type { Handler, Middleware } from "../http/respond.ts";

/**
 * One route of the HTTP API: the operation it serves, its method and path,
 * the path as a `URLPattern`, and the handler with its guards in place.
 * The handler takes the pattern's match as its second argument, like
 * `@std/http`'s `route()` passes it; given none, a handler whose path has
 * values (`:id`) reads them from the request itself, so a mount may find
 * the route with `pattern.test()`, much cheaper than `exec()`.
 *
 * @example Dispatching a request
 * ```ts
 * import type { Route } from "@gatehouse/server";
 *
 * function dispatch(routes: readonly Route[], req: Request) {
 *   for (const route of routes) {
 *     if (route.method === req.method && route.pattern.test(req.url)) {
 *       return route.handler(req);
 *     }
 *   }
 *   return new Response("Not found", { status: 404 });
 * }
 * ```
 */
export interface Route {
  /** The operation's canonical name (`login`, `listUsers`, …). */
  readonly operation: OperationName;
  /** The HTTP method. */
  readonly method: Method;
  /** The path, `:name` for path values: the syntax of URLPattern, Hono and Oak. */
  readonly path: string;
  /** The path as a pattern, for a `URLPattern` table or `@std/http`'s `route()`. */
  readonly pattern: URLPattern;
  /** The handler, behind its guard, limiter and the cross-origin guard. */
  readonly handler: Handler;
}

/** What the routes put in front of the operations, besides their guard. */
export interface RouteGuards {
  /** Refuses cross-origin browser writes; put in front of every write. */
  readonly crossOrigin: Middleware;
  /**
   * By limiter: the rate limiter of the operations that name it. It
   * answers what the operation throws, and counts it if it is a guess.
   */
  readonly limiters: Readonly<Record<Limiter, Middleware>>;
}

/**
 * The route of every operation given, in the contract's order, each
 * wrapped in what the contract records for it: the guard (read once, from
 * the context), behind it the limiter, the second-factor and freshness
 * checks, and the cross-origin guard in front of every write. An operation
 * not given gets no route.
 */
export function routeTable(
  context: GatehouseContext,
  operations: Partial<Readonly<Record<OperationName, Operation>>>,
  wrap: RouteGuards,
): Route[] {
  const routes: Route[] = [];
  for (const name of OPERATION_NAMES) {
    const operation = operations[name];
    if (operation === undefined) continue;
    const spec: {
      method: Method;
      path: string;
      guard: Guard;
      limiter?: Limiter;
    } = OPERATIONS[name];
    const guard = routeGuard(context, spec.guard);
    // Who answers what the operation throws: its limiter (which counts
    // the guesses among them), else its guard, else the plain answering.
    let inner = contractChecks(
      context,
      name,
      spec.limiter === undefined && guard === undefined
        ? context.answering(operation.run)
        : operation.run,
    );
    // The limiter sits behind the guard: a call the guard refuses (no
    // session) guesses nothing, so it neither counts nor takes one of the
    // client's attempts, however many come at once.
    if (spec.limiter !== undefined) inner = wrap.limiters[spec.limiter](inner);
    let guarded = guard?.(inner) ?? inner;
    if (spec.method !== "GET") guarded = wrap.crossOrigin(guarded);
    // The browser-label parser before anything that may record the client:
    // a limiter's refusal event too, not only the operation's own writes
    // (the operation itself waits for it as well: ./operation.ts).
    if (name !== "fetchSession") guarded = withBrowserLabels(guarded);
    const pattern = lazyPattern(spec.path);
    routes.push(Object.freeze({
      operation: name,
      method: spec.method,
      path: spec.path,
      get pattern() {
        return pattern();
      },
      handler: spec.path.includes(":")
        ? matchingItself(guarded, pattern)
        : guarded,
    }));
  }
  return routes;
}

// A route's URLPattern is made when it is first read, then kept: parsing
// the sixty-odd patterns at start-up was the largest share of
// createGatehouse's work in a cold start (issue 31), before a mount tested
// any. A mount that checks the method first (the README's) parses only
// the patterns of its method up to the route it finds.
function lazyPattern(path: string): () => URLPattern {
  let pattern: URLPattern | undefined;
  return () => pattern ??= new URLPattern({ pathname: path });
}

// A handler of a path with values (`:id`) given no match reads them from
// the request itself. So a mount may route with `pattern.test()` (a
// fraction of the time and garbage of `exec()`) and hand over no match;
// only the few routes with path values then pay for `exec()`.
function matchingItself(handler: Handler, pattern: () => URLPattern): Handler {
  return function withPathValues(req, params, info) {
    return handler(req, params ?? pattern().exec(req.url) ?? undefined, info);
  };
}
