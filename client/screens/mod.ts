/**
 * `@gatehouse/client/screens`: ready-made Preact screens for Gatehouse,
 * their stylesheet and their translations (SPEC.md's `/wpds` entry).
 *
 * - Signing in and out: {@linkcode LoginScreen} (for `AuthGate`'s
 *   `loginScreen`), {@linkcode AccountPanel}.
 * - Administration, for those who may manage users
 *   (`can(user, USERS_MANAGE)`): {@linkcode UsersScreen},
 *   {@linkcode NewUserScreen}, {@linkcode InviteScreen},
 *   {@linkcode AuditLogScreen}, and {@linkcode usersNavItem} for the app's
 *   navigation.
 * - {@linkcode useReauthentication}: the dialog that asks for the password
 *   again when the server wants a fresh proof, for your own calls too.
 * - Links by mail: {@linkcode SetPasswordScreen} (an invitation),
 *   {@linkcode RequestResetScreen} and {@linkcode ResetPasswordScreen}.
 * - {@linkcode stylesheet}: the CSS (also shipped as `screens/style.css`),
 *   themed with `--gh-*` custom properties.
 * - Translations: every string goes through `@wordpress/i18n` under the text
 *   domain {@linkcode DOMAIN}; {@linkcode catalogFor} resolves the shipped
 *   Spanish catalogue, {@linkcode setScreensLocale} switches language. A
 *   server rendering each request in its visitor's language gives each
 *   render an instance of its own with {@linkcode withScreensI18n}.
 *
 * The screens do no routing: they call the props you give them
 * (`onLogin`, `onCreated`, `onDone`...). They need the shared peers
 * `preact`, `@preact/signals`, `@tanstack/preact-query` and
 * `@wordpress/i18n`, one copy of each.
 *
 * @example An app in Spanish, with the ready-made login screen
 * ```tsx
 * import { AuthGate, createAuthQueryClient } from "@gatehouse/client";
 * import { AccountPanel, LoginScreen, setScreensLocale, stylesheet, UsersScreen } from "@gatehouse/client/screens";
 * import { QueryClientProvider } from "@tanstack/preact-query";
 *
 * await setScreensLocale("es");
 * const client = createAuthQueryClient();
 *
 * export const App = () => (
 *   <QueryClientProvider client={client}>
 *     <style>{stylesheet}</style>
 *     <AuthGate loginScreen={(onLogin) => <LoginScreen brand="Acme" onLogin={onLogin} />}>
 *       <AccountPanel />
 *       <UsersScreen />
 *     </AuthGate>
 *   </QueryClientProvider>
 * );
 * ```
 *
 * @module
 */

export { AccountPanel, type AccountPanelProps } from "./account_panel.tsx";
export {
  AuditLogScreen,
  type AuditLogScreenProps,
} from "./audit_log_screen.tsx";
export { type Reauthentication, useReauthentication } from "./_reauth.tsx";
export type { HeadingLevel } from "./_form_parts.tsx";
export {
  type Catalog,
  catalogFor,
  type CatalogHeader,
  DOMAIN,
  screensI18n,
  type ScreensLocaleOptions,
  setScreensLocale,
  withScreensI18n,
} from "./i18n.ts";
export { InviteScreen, type InviteScreenProps } from "./invite_screen.tsx";
export { LoginScreen, type LoginScreenProps } from "./login_screen.tsx";
export { usersNavItem, type UsersNavItemOptions } from "./nav.tsx";
export { NewUserScreen, type NewUserScreenProps } from "./new_user_screen.tsx";
export {
  RequestResetScreen,
  type RequestResetScreenProps,
} from "./request_reset_screen.tsx";
export {
  ResetPasswordScreen,
  type ResetPasswordScreenProps,
} from "./reset_password_screen.tsx";
export {
  SetPasswordScreen,
  type SetPasswordScreenProps,
} from "./set_password_screen.tsx";
export { stylesheet } from "./style_css.ts";
export { UsersScreen, type UsersScreenProps } from "./users_screen.tsx";
// The client's shapes the props above take, so this entry reads on its own.
export type { InviteResult, SessionUser, User } from "../types.ts";
