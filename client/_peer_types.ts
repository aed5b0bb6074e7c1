// The peer libraries' types that appear in the public API, under their own
// names. `deno doc --lint` reports any type of another package as a
// "private type" (denoland/deno#27364), so each is aliased here and marked
// `@internal`, the suppression `deno doc` documents. They stay exactly the
// libraries' types: aliases are transparent to the type checker.

import type { Window as HappyDomWindow } from "happy-dom";
import type {
  HttpHandler as MswHttpHandler,
  RequestHandler as MswRequestHandler,
} from "msw";
import type { SetupServer as MswSetupServer } from "msw/node";
import type {
  ComponentChildren as PreactComponentChildren,
  VNode as PreactVNode,
} from "preact";
import type { I18n as WordPressI18n } from "@wordpress/i18n";
import type {
  QueryClient as TanStackQueryClient,
  QueryClientConfig as TanStackQueryClientConfig,
  UseMutationResult as TanStackUseMutationResult,
} from "@tanstack/preact-query";

/**
 * `QueryClient` of `@tanstack/preact-query`.
 *
 * @internal
 */
export type QueryClient = TanStackQueryClient;

/**
 * `QueryClientConfig` of `@tanstack/preact-query`.
 *
 * @internal
 */
export type QueryClientConfig = TanStackQueryClientConfig;

/**
 * `UseMutationResult` of `@tanstack/preact-query`.
 *
 * @internal
 */
export type UseMutationResult<TData, TError, TVariables> =
  TanStackUseMutationResult<TData, TError, TVariables>;

/**
 * `ComponentChildren` of `preact`.
 *
 * @internal
 */
export type ComponentChildren = PreactComponentChildren;

/**
 * `VNode` of `preact`.
 *
 * @internal
 */
export type VNode = PreactVNode;

/**
 * `I18n` of `@wordpress/i18n`: an instance, such as `createI18n()` returns.
 *
 * @internal
 */
export type I18n = WordPressI18n;

/**
 * `HttpHandler` of `msw`.
 *
 * @internal
 */
export type HttpHandler = MswHttpHandler;

/**
 * `RequestHandler` of `msw`.
 *
 * @internal
 */
export type RequestHandler = MswRequestHandler;

/**
 * `SetupServer` of `msw/node`.
 *
 * @internal
 */
export type SetupServer = MswSetupServer;

/**
 * `Window` of `happy-dom`.
 *
 * @internal
 */
export type Window = HappyDomWindow;
