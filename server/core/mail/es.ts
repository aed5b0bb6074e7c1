// The Spanish catalogue of the shipped templates (tú, like the screens'
// catalogue): every kind of mail of DESIGN.md §14, saying what the English
// one says.

import type { MailCatalog, MailFormat, MailParts } from "./catalog.ts";
import type { NoticeData } from "./data.ts";

const greeting = (name: string | undefined) =>
  name === undefined || name === "" ? undefined : `Hola, ${name}:`;

const NOT_YOU =
  "Si fuiste tú, no tienes que hacer nada. Si no, alguien podría entrar en tu cuenta: restablece ahora tu contraseña con «¿Olvidaste tu contraseña?» en la página de inicio de sesión y avisa a tu administrador.";

function notice(
  data: NoticeData,
  format: MailFormat,
  words: { subject: string; heading: string; said: string; advice?: string },
): MailParts {
  const unknown = "desconocido";
  return {
    subject: words.subject,
    heading: words.heading,
    ...defined(greeting(data.name)),
    paragraphs: [words.said],
    facts: [
      ["Cuándo", format.dateTime(data.at)],
      ["Navegador", data.browser || unknown],
      ["Dirección", data.ip || unknown],
    ],
    closing: [words.advice ?? NOT_YOU],
  };
}

function defined(value: string | undefined): { greeting?: string } {
  return value === undefined ? {} : { greeting: value };
}

/** Spanish (`es`), for every Spanish-speaking region. */
export const es: MailCatalog = {
  locale: "es",
  footer: (product, email) =>
    `${product} envió este mensaje a ${email} sobre tu cuenta.`,
  kinds: {
    invitation: (data, format) => ({
      subject: `Te invitan a ${data.product}`,
      heading: `Te invitan a ${data.product}`,
      ...defined(greeting(data.name)),
      paragraphs: [
        data.inviter === null
          ? `Te invitaron a ${data.product}. Elige tu contraseña para abrir tu cuenta.`
          : `${data.inviter} te invitó a ${data.product}. Elige tu contraseña para abrir tu cuenta.`,
      ],
      action: {
        label: "Elegir mi contraseña",
        url: data.link,
        fallback: "Si el botón no funciona, abre esta dirección:",
      },
      closing: [
        `El enlace sirve una sola vez y caduca en ${
          format.duration(data.validFor)
        }.`,
        "Si no esperabas esta invitación, ignora este mensaje: no se crea ninguna cuenta hasta que se use el enlace.",
      ],
    }),
    password_reset: (data, format) => ({
      subject: `Restablece tu contraseña de ${data.product}`,
      heading: "Restablece tu contraseña",
      ...defined(greeting(data.name)),
      paragraphs: [
        `Alguien pidió restablecer la contraseña de la cuenta de ${data.product} de ${data.email}. Si fuiste tú, elige una contraseña nueva:`,
      ],
      action: {
        label: "Elegir una contraseña nueva",
        url: data.link,
        fallback: "Si el botón no funciona, abre esta dirección:",
      },
      closing: [
        `El enlace sirve una sola vez y caduca en ${
          format.duration(data.validFor)
        }.`,
        "Si no fuiste tú, ignora este mensaje: tu contraseña no cambia.",
      ],
    }),
    account_exists: (data) => ({
      subject: `Una invitación a ${data.product}`,
      heading: "Ya tienes una cuenta",
      ...defined(greeting(data.name)),
      paragraphs: [
        `Alguien invitó a ${data.email} a ${data.product}, pero esta dirección ya tiene una cuenta, así que no se creó ninguna nueva.`,
      ],
      closing: [
        "Inicia sesión como siempre. Si olvidaste tu contraseña, usa «¿Olvidaste tu contraseña?» en la página de inicio de sesión.",
      ],
    }),
    new_sign_in: (data, format) =>
      notice(data, format, {
        subject: `Nuevo inicio de sesión en tu cuenta de ${data.product}`,
        heading: "Nuevo inicio de sesión en tu cuenta",
        said:
          `Se inició sesión en tu cuenta de ${data.product} (${data.email}) desde un navegador o una red que no había usado recientemente.`,
      }),
    password_changed: (data, format) =>
      notice(data, format, {
        subject: `Se cambió tu contraseña de ${data.product}`,
        heading: "Se cambió tu contraseña",
        said: data.viaReset
          ? `La contraseña de tu cuenta de ${data.product} (${data.email}) se cambió con un enlace de restablecimiento.`
          : `La contraseña de tu cuenta de ${data.product} (${data.email}) se cambió.`,
      }),
    second_factor_enabled: (data, format) =>
      notice(data, format, {
        subject:
          `La verificación en dos pasos está activada en tu cuenta de ${data.product}`,
        heading: "La verificación en dos pasos está activada",
        said:
          `Una aplicación de autenticación protege ahora tu cuenta de ${data.product} (${data.email}): al iniciar sesión con tu contraseña también se pide un código.`,
      }),
    second_factor_disabled: (data, format) =>
      notice(data, format, {
        subject:
          `La verificación en dos pasos está desactivada en tu cuenta de ${data.product}`,
        heading: "La verificación en dos pasos está desactivada",
        said: data.byAdministrator
          ? `Un administrador desactivó la verificación en dos pasos de tu cuenta de ${data.product} (${data.email}): ahora basta tu contraseña para iniciar sesión.`
          : `Se desactivó la verificación en dos pasos de tu cuenta de ${data.product} (${data.email}): ahora basta tu contraseña para iniciar sesión.`,
      }),
    passkey_added: (data, format) =>
      notice(data, format, {
        subject: `Se añadió una llave de acceso a tu cuenta de ${data.product}`,
        heading: "Se añadió una llave de acceso",
        said:
          `Una llave de acceso nueva puede iniciar sesión en tu cuenta de ${data.product} (${data.email}).`,
      }),
    passkey_removed: (data, format) =>
      notice(data, format, {
        subject: `Se quitó una llave de acceso de tu cuenta de ${data.product}`,
        heading: "Se quitó una llave de acceso",
        said:
          `Se quitó una llave de acceso de tu cuenta de ${data.product} (${data.email}): ya no puede iniciar sesión.`,
      }),
    recovery_codes_regenerated: (data, format) =>
      notice(data, format, {
        subject:
          `Nuevos códigos de recuperación para tu cuenta de ${data.product}`,
        heading: "Nuevos códigos de recuperación",
        said:
          `Se generaron nuevos códigos de recuperación para tu cuenta de ${data.product} (${data.email}); los anteriores ya no sirven.`,
      }),
    sso_linked: (data, format) =>
      notice(data, format, {
        subject:
          `Tu cuenta de ${data.product} se vinculó al inicio de sesión único`,
        heading: "Inicio de sesión único vinculado",
        said:
          `Tu cuenta de ${data.product} (${data.email}) se vinculó al inicio de sesión único de tu organización: ya puedes iniciar sesión con él.`,
      }),
    account_locked: (data, format) =>
      notice(data, format, {
        subject:
          `Los inicios de sesión en tu cuenta de ${data.product} están en pausa`,
        heading: "Los inicios de sesión están en pausa",
        said: data.untilReset
          ? `Tras demasiadas contraseñas o códigos incorrectos seguidos para tu cuenta de ${data.product} (${data.email}), los inicios de sesión quedan en pausa hasta que se restablezca su contraseña. El último intento:`
          : `Tras muchas contraseñas o códigos incorrectos para tu cuenta de ${data.product} (${data.email}), los inicios de sesión desde navegadores que no conoce quedan en pausa un tiempo. Los navegadores con los que ya iniciaste sesión no se ven afectados. El último intento:`,
        advice:
          "Si esos intentos no fueron tuyos, alguien está intentando adivinar tu contraseña. Cuando inicies sesión, cámbiala por una que no uses en ningún otro sitio; si no puedes iniciar sesión, usa «¿Olvidaste tu contraseña?» en la página de inicio de sesión o pide ayuda a tu administrador.",
      }),
  },
};
