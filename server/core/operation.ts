/**
 * An operation of the contract, defined once: its happy path, and the
 * guard the contract records for it (`OPERATIONS[name].guard`) put in
 * front of it here, never by the handler. The routes add what else the
 * contract records (limiter, freshness, second factor, cross-origin); a
 * factory hands out the guarded handler, so no handler can be mounted
 * without its guard, and no handler checks its caller again.
 *
 * @module
 */

import {
  type Guard,
  type OperationName,
  OPERATIONS,
} from "@gatehouse/contract";
import type { ActorStanding } from "./actor.ts";
import type { GatehouseContext } from "./context.ts";
import {
  contextOf,
  type Identity,
  type SessionContext,
  standingOf,
} from "./identity.ts";
import type { Handler, Middleware } from "../http/respond.ts";
import { withBrowserLabels } from "../http/_client_meta.ts";

/** Who calls a signed-in operation: admitted by its guard. */
export interface Caller {
  /** The signed-in account. */
  readonly identity: Identity;
  /** The session it was admitted with. */
  readonly session: SessionContext;
  /**
   * What its changes to its own account are bound to: the account, still
   * enabled at this session's generation, and this session, still stored,
   * both checked again in the change's commit.
   */
  readonly standing: ActorStanding;
}

/** The happy path of a public operation; errors are thrown. */
export type PublicRun = Handler;

/** Who calls an administrator's operation: admitted by its privilege. */
export interface Admin {
  /** The administrator's account. */
  readonly identity: Identity;
  /**
   * What its changes are bound to (the store checks it again in each
   * change's commit); undefined for an identity the application attached
   * without a session (`withIdentity`), which the application vouches for.
   */
  readonly standing: ActorStanding | undefined;
}

/** The happy path of an operation of one's own session; errors are thrown. */
export type SessionRun = (
  req: Request,
  caller: Caller,
  params?: URLPatternResult,
  info?: Deno.ServeHandlerInfo,
) => Response | Promise<Response>;

/** The happy path of an administrator's operation; errors are thrown. */
export type PrivilegedRun = (
  req: Request,
  admin: Admin,
  params?: URLPatternResult,
  info?: Deno.ServeHandlerInfo,
) => Response | Promise<Response>;

/** The happy path an operation of each guard is written as. */
export interface RunOf {
  public: PublicRun;
  session: SessionRun;
  privileged: PrivilegedRun;
}

/** An operation, ready for a route or a factory. */
export interface Operation {
  /** The operation's name in the contract. */
  readonly name: OperationName;
  /** Its guard, as the contract records it. */
  readonly guard: Guard;
  /**
   * The happy path, behind nothing: errors are thrown. Only the routes
   * use it, behind the guard they put in front of it.
   */
  readonly run: Handler;
  /**
   * The happy path behind its guard, errors answered: what a factory
   * hands out. A request already admitted (behind `requireSession`, or an
   * identity the application attached with `withIdentity`) is not read
   * again.
   */
  readonly handler: Handler;
}

/** The operations a feature defines, by name. */
export type Operations<N extends OperationName = OperationName> = {
  readonly [K in N]: Operation;
};

/**
 * Defines the operation `name` of the contract from its happy path, written
 * for the guard the contract gives it.
 *
 * @example A signed-in operation reads its caller, never checks it
 * ```ts
 * import { gatehouseContext } from "./context.ts";
 * import { defineOperation } from "./operation.ts";
 * import { KvStore } from "../stores/kv/kv_store.ts";
 *
 * const kv = await Deno.openKv(":memory:");
 * const context = gatehouseContext({ store: new KvStore(kv) });
 * const op = defineOperation(context, "listSessions", (_req, caller) =>
 *   Response.json({ id: caller.session.id }));
 * const res = await op.handler(new Request("http://localhost/api/auth/sessions"));
 * console.assert(res.status === 401);
 * kv.close();
 * ```
 */
export function defineOperation<N extends OperationName>(
  context: GatehouseContext,
  name: N,
  happyPath: RunOf[(typeof OPERATIONS)[N]["guard"]],
): Operation {
  const guard: Guard = OPERATIONS[name].guard;
  const adapted = adapt(guard, happyPath as RunOf[Guard]);
  // Every operation but the session check may record its client (sessions,
  // events), whose browser label needs the parser loaded first.
  const run = name === "fetchSession" ? adapted : withBrowserLabels(adapted);
  return Object.freeze({
    name,
    guard,
    run,
    handler: guarded(context, name, run),
  });
}

/**
 * The checks the contract records for operation `name` behind its guard,
 * around `run`: freshness (`fresh`: a recent sign-in or re-authentication)
 * and the second factor an account's role requires (every operation behind
 * a session but those a pending enrolment needs). The routes and the
 * factories' handlers put the same ones in front of an operation.
 */
export function contractChecks(
  context: GatehouseContext,
  name: OperationName,
  run: Handler,
): Handler {
  const spec: { guard: Guard; fresh?: boolean; beforeSecondFactor?: boolean } =
    OPERATIONS[name];
  let checked = run;
  if (spec.fresh === true) checked = context.guards.fresh(checked);
  if (spec.guard !== "public" && spec.beforeSecondFactor !== true) {
    checked = context.guards.secondFactor(checked);
  }
  return checked;
}

/**
 * The operations `names`, each standing in for the one `build` makes: the
 * first call of any of them runs `build` (which imports the module that
 * defines them and builds them on their context: a memoized
 * `lazyImport`), later calls go straight to the built operation. Each
 * keeps its name and guard, read from the contract, so a route puts the
 * same guard, limiter and checks in front of it before anything is
 * imported; a factory's handler is behind its guard as well. A failed
 * import is thrown to whoever answers it (a 500), and tried again by the
 * next call.
 *
 * `names` holds every operation `build` makes, each set to `true`: the
 * compiler refuses a record that misses one or names another.
 *
 * @example An operation built by its first call
 * ```ts
 * import { gatehouseContext } from "./context.ts";
 * import { defineOperation, deferredOperations } from "./operation.ts";
 * import { lazyImport } from "../http/_lazy_import.ts";
 * import { KvStore } from "../stores/kv/kv_store.ts";
 *
 * const kv = await Deno.openKv(":memory:");
 * const context = gatehouseContext({ store: new KvStore(kv) });
 * let builds = 0;
 * // In Gatehouse: `import("../features/….ts")`, then its factory.
 * const build = lazyImport(() => {
 *   builds++;
 *   return Promise.resolve({
 *     checkLink: defineOperation(context, "checkLink", () =>
 *       new Response(null, { status: 204 })),
 *   });
 * });
 * const { checkLink } = deferredOperations(context, { checkLink: true }, build);
 * console.assert(builds === 0 && checkLink.guard === "public");
 * const res = await checkLink.handler(new Request("http://localhost/"));
 * console.assert(res.status === 204 && builds === 1);
 * kv.close();
 * ```
 */
export function deferredOperations<N extends OperationName>(
  context: GatehouseContext,
  names: { readonly [K in NoInfer<N>]: true },
  build: () => Promise<Operations<N>>,
): Operations<N> {
  let built: Operations<N> | undefined;
  const ready = () => build().then((operations) => built = operations);
  const operations = {} as { [K in N]: Operation };
  for (const name of Object.keys(names) as N[]) {
    const guard: Guard = OPERATIONS[name].guard;
    // After the first call, the built operation's own `run` directly,
    // without a turn of the event loop (like `withBrowserLabels`).
    const run: Handler = function deferred(req, params, info) {
      if (built !== undefined) return built[name].run(req, params, info);
      return ready().then((ops) => ops[name].run(req, params, info));
    };
    operations[name] = Object.freeze({
      name,
      guard,
      run,
      handler: guarded(context, name, run),
    });
  }
  return operations;
}

/** The guarded handlers of some operations, by name. */
export function handlersOf<N extends OperationName>(
  operations: Operations<N>,
): { [K in N]: Handler } {
  const handlers = {} as { [K in N]: Handler };
  for (const name of Object.keys(operations) as N[]) {
    handlers[name] = operations[name].handler;
  }
  return handlers;
}

/**
 * The guard of `guard` as the routes put it in front of an operation's
 * `run`: it reads the session (and checks the privilege) once.
 */
export function routeGuard(
  context: GatehouseContext,
  guard: Guard,
): Middleware | undefined {
  const { session, privilege } = context.guards;
  if (guard === "session") return session;
  if (guard === "privileged") return (next) => session(privilege(next));
  return undefined;
}

// The happy path as a Handler: the caller the guard admitted, read once
// from the request context (the guard in front of it vouches for it), with
// the standing its changes are bound to (one's own: its session too; an
// administrator's: its role), made here once so that no change can leave it
// out by forgetting to ask.
function adapt(guard: Guard, happyPath: RunOf[Guard]): Handler {
  if (guard === "public") return happyPath as PublicRun;
  if (guard === "session") {
    const run = happyPath as SessionRun;
    return (req, params, info) => {
      const { identity, session } = contextOf(req)!;
      const standing = {
        id: identity.id,
        generation: session!.generation,
        session: session!.tokenHash,
      };
      return run(req, { identity, session: session!, standing }, params, info);
    };
  }
  const run = happyPath as PrivilegedRun;
  return (req, params, info) => {
    const { identity } = contextOf(req)!;
    const standing = standingOf(req, identity);
    return run(req, { identity, standing }, params, info);
  };
}

// For a factory's handler: the guard and the contract's checks behind it
// (freshness, the second factor), as a route has them, unless the request
// was admitted already (mounted behind `requireSession`): then the checks
// alone. An identity the application attached without a session
// (`withIdentity`) has no sign-in to judge fresh, and is admitted by its
// privilege alone, as before; an operation of one's own session needs the
// session itself, which `withIdentity` does not attach.
function guarded(
  context: GatehouseContext,
  name: OperationName,
  run: Handler,
): Handler {
  const guard: Guard = OPERATIONS[name].guard;
  const full = routeGuard(context, guard);
  if (full === undefined) return context.answering(run);
  const checked = contractChecks(context, name, run);
  const { privilege } = context.guards;
  const admitted = context.answering(
    guard === "privileged" ? privilege(checked) : checked,
  );
  const attachedOnly = context.answering(privilege(run));
  const reading = full(checked);
  return function guardedOperation(req, params, info) {
    const attached = contextOf(req);
    if (attached !== undefined && attached.session !== null) {
      return admitted(req, params, info);
    }
    if (attached !== undefined && guard === "privileged") {
      return attachedOnly(req, params, info);
    }
    return reading(req, params, info);
  };
}
