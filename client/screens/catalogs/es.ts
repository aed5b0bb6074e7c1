// The Spanish catalogue of the screens, in the Jed locale-data format of
// @wordpress/i18n: each English string maps to its translations (two for
// the strings with a plural). tests/client/screens/i18n_test.tsx checks that
// every string of every screen is here and that nothing else is.

import type { Catalog } from "./catalog.ts";

/** Spanish (`es`), for every Spanish-speaking region. */
export const es: Catalog = {
  "": {
    domain: "gatehouse",
    lang: "es",
    plural_forms: "nplurals=2; plural=n != 1;",
  },

  // The gate's default states (client/gate.tsx; "Try again" is below)
  "Loading…": ["Cargando…"],
  "Cannot reach the server": ["No se puede conectar con el servidor"],

  // Signing in and out
  "Sign in to %s": ["Inicia sesión en %s"],
  "Email": ["Correo electrónico"],
  "Password": ["Contraseña"],
  "Sign in": ["Iniciar sesión"],
  "Signing in…": ["Iniciando sesión…"],
  "Forgot password?": ["¿Olvidaste tu contraseña?"],
  "Your account": ["Tu cuenta"],
  "Name": ["Nombre"],
  "Role": ["Rol"],
  "No role": ["Sin rol"],
  "Sign out": ["Cerrar sesión"],
  "Signing out…": ["Cerrando sesión…"],
  "Language of your emails": ["Idioma de tus correos"],
  "Language": ["Idioma"],
  "Save language": ["Guardar idioma"],
  "Saving…": ["Guardando…"],
  "Language saved.": ["Idioma guardado."],

  // Users
  "Users": ["Usuarios"],
  "Your account may not manage users.": [
    "Tu cuenta no puede gestionar usuarios.",
  ],
  "Search by name or email": ["Buscar por nombre o correo"],
  "Search": ["Buscar"],
  "Loading accounts…": ["Cargando cuentas…"],
  "No accounts yet.": ["Todavía no hay cuentas."],
  "No accounts match your search.": [
    "Ninguna cuenta coincide con la búsqueda.",
  ],
  "Try again": ["Volver a intentarlo"],
  "Pages": ["Páginas"],
  "Previous page": ["Página anterior"],
  "Page %d": ["Página %d"],
  "Next page": ["Página siguiente"],
  "You": ["Tú"],
  "Active": ["Activa"],
  "Disabled": ["Desactivada"],
  "Change role": ["Cambiar rol"],
  "Enable": ["Activar"],
  "Reload list": ["Recargar la lista"],

  // New account
  "Create account": ["Crear cuenta"],
  "Creating account…": ["Creando la cuenta…"],
  "Cancel": ["Cancelar"],
  "At least %d character.": [
    "Al menos %d carácter.",
    "Al menos %d caracteres.",
  ],

  // Invitations
  "Invite someone": ["Invitar a alguien"],
  "They will get a link to choose their own password.": [
    "Recibirá un enlace para elegir su propia contraseña.",
  ],
  "Send invitation": ["Enviar invitación"],
  "Sending invitation…": ["Enviando la invitación…"],
  "Invitation sent to %s.": ["Invitación enviada a %s."],
  "This server does not send mail. Give this activation link to %s yourself.": [
    "Este servidor no envía correo. Entrega tú este enlace de activación a %s.",
  ],
  "Activation link": ["Enlace de activación"],
  "It works once. Whoever has it can set the password of this account.": [
    "Funciona una sola vez. Quien lo tenga puede elegir la contraseña de esta cuenta.",
  ],
  "Copy link": ["Copiar enlace"],
  "Link copied.": ["Enlace copiado."],
  "The link could not be copied. Select it and copy it yourself.": [
    "No se pudo copiar el enlace. Selecciónalo y cópialo a mano.",
  ],
  "Invite someone else": ["Invitar a otra persona"],

  // Accepting an invitation
  "Welcome to %s": ["Te damos la bienvenida a %s"],
  "Choose a password to finish setting up your account.": [
    "Elige una contraseña para terminar de configurar tu cuenta.",
  ],
  "New password": ["Contraseña nueva"],
  "Repeat the password": ["Repite la contraseña"],
  "Set password and sign in": ["Guardar contraseña e iniciar sesión"],
  "Setting password…": ["Guardando la contraseña…"],
  "This invitation link is no longer valid": [
    "Este enlace de invitación ya no es válido",
  ],
  "It has been used already, or it has expired. Ask the person who invited you to send a new invitation.":
    [
      "Ya se ha usado o ha caducado. Pide a quien te invitó que te envíe una invitación nueva.",
    ],
  "You already have an account": ["Ya tienes una cuenta"],
  "This address already has an account, so the invitation cannot create another. Sign in with it, or reset its password if you have forgotten it.":
    [
      "Esta dirección ya tiene una cuenta, así que la invitación no puede crear otra. Inicia sesión con ella o restablece su contraseña si la has olvidado.",
    ],

  // Password resets
  "Reset your password": ["Restablece tu contraseña"],
  "Enter the email address of your account and we will send it a link to choose a new password.":
    [
      "Escribe la dirección de correo de tu cuenta y le enviaremos un enlace para elegir una contraseña nueva.",
    ],
  "Send reset link": ["Enviar enlace"],
  "Sending…": ["Enviando…"],
  "If an account exists for that address, we have sent it a link to reset the password. Check your inbox.":
    [
      "Si existe una cuenta con esa dirección, le hemos enviado un enlace para restablecer la contraseña. Revisa tu bandeja de entrada.",
    ],
  "Back to sign in": ["Volver al inicio de sesión"],
  "Choose a new password": ["Elige una contraseña nueva"],
  "Change password": ["Cambiar contraseña"],
  "Changing password…": ["Cambiando la contraseña…"],
  "Your password has been changed. Sign in with your new password.": [
    "Tu contraseña se ha cambiado. Inicia sesión con la contraseña nueva.",
  ],
  "This reset link is no longer valid": [
    "Este enlace de restablecimiento ya no es válido",
  ],
  "Reset links work only once and only for a limited time. Request a new one from the sign-in page with “Forgot password?”.":
    [
      "Los enlaces de restablecimiento solo funcionan una vez y durante un tiempo limitado. Pide uno nuevo desde la página de inicio de sesión con «¿Olvidaste tu contraseña?».",
    ],
  "Request a new link": ["Pedir un enlace nuevo"],

  // Problems found by the form
  "This field is required.": ["Este campo es obligatorio."],
  "The passwords do not match.": ["Las contraseñas no coinciden."],

  // What the server said
  "Email or password is incorrect.": [
    "El correo o la contraseña no son correctos.",
  ],
  "Too many attempts. Try again later.": [
    "Demasiados intentos. Vuelve a intentarlo más tarde.",
  ],
  "Sign-in to this account is paused after too many failed attempts. Reset your password to sign in again, or ask an administrator to unlock the account.":
    [
      "El inicio de sesión en esta cuenta está pausado tras demasiados intentos fallidos. Restablece tu contraseña para volver a entrar, o pide a un administrador que desbloquee la cuenta.",
    ],
  "Sign-in to this account is paused after too many failed attempts. Try again later.":
    [
      "El inicio de sesión en esta cuenta está pausado tras demasiados intentos fallidos. Vuelve a intentarlo más tarde.",
    ],
  "Sign-in to this account is paused after too many failed attempts. You can try again at %s.":
    [
      "El inicio de sesión en esta cuenta está pausado tras demasiados intentos fallidos. Podrás volver a intentarlo desde %s.",
    ],
  "Too many attempts. Try again in %d second.": [
    "Demasiados intentos. Vuelve a intentarlo en %d segundo.",
    "Demasiados intentos. Vuelve a intentarlo en %d segundos.",
  ],
  "Too many attempts. Try again in %d minute.": [
    "Demasiados intentos. Vuelve a intentarlo en %d minuto.",
    "Demasiados intentos. Vuelve a intentarlo en %d minutos.",
  ],
  "The server does not know this role.": ["El servidor no conoce este rol."],
  "The server's emails are not written in this language.": [
    "El servidor no escribe sus correos en este idioma.",
  ],
  "What you entered is too long.": ["Lo que has escrito es demasiado largo."],
  "The server could not read the request. Reload the page and try again.": [
    "El servidor no pudo leer la solicitud. Recarga la página y vuelve a intentarlo.",
  ],
  "This value is not valid.": ["Este valor no es válido."],
  "This link is no longer valid.": ["Este enlace ya no es válido."],
  "An account with this email address already exists.": [
    "Ya existe una cuenta con esta dirección de correo.",
  ],
  "Your session has ended. Sign in again.": [
    "Tu sesión ha terminado. Vuelve a iniciar sesión.",
  ],
  "Your account may not change roles.": ["Tu cuenta no puede cambiar roles."],
  "You cannot change your own role.": ["No puedes cambiar tu propio rol."],
  "You cannot disable your own account.": [
    "No puedes desactivar tu propia cuenta.",
  ],
  "You may not give this role or change this account.": [
    "No puedes dar este rol ni cambiar esta cuenta.",
  ],
  "The server refused a request from this page because it comes from another site.":
    [
      "El servidor rechazó una solicitud de esta página porque viene de otro sitio.",
    ],
  "Your account may not do this.": ["Tu cuenta no puede hacer esto."],
  "This is the last account that can manage users, so it must keep that right.":
    [
      "Es la última cuenta que puede gestionar usuarios, así que debe conservar ese derecho.",
    ],
  "This account changed since the list was loaded. Reload the list and try again.":
    [
      "Esta cuenta ha cambiado desde que se cargó la lista. Recarga la lista y vuelve a intentarlo.",
    ],
  "This account no longer exists. Reload the list.": [
    "Esta cuenta ya no existe. Recarga la lista.",
  ],
  "This invitation is no longer pending. Reload the list.": [
    "Esta invitación ya no está pendiente. Recarga la lista.",
  ],
  "This server is too old for invitations. Ask its administrator to upgrade Gatehouse.":
    [
      "Este servidor es demasiado antiguo para las invitaciones. Pide a su administrador que actualice Gatehouse.",
    ],
  "This server is too old for password resets. Ask its administrator to upgrade Gatehouse.":
    [
      "Este servidor es demasiado antiguo para restablecer contraseñas. Pide a su administrador que actualice Gatehouse.",
    ],
  "This server is too old to change roles. Ask its administrator to upgrade Gatehouse.":
    [
      "Este servidor es demasiado antiguo para cambiar roles. Pide a su administrador que actualice Gatehouse.",
    ],
  "The invitation could not be delivered. Try again later.": [
    "No se pudo entregar la invitación. Vuelve a intentarlo más tarde.",
  ],
  "The invitation email could not be sent, so no invitation was made. Try again later.":
    [
      "No se pudo enviar el correo de la invitación, así que no se creó ninguna invitación. Vuelve a intentarlo más tarde.",
    ],
  "Cannot reach the server. Check your connection and try again.": [
    "No se puede contactar con el servidor. Comprueba tu conexión y vuelve a intentarlo.",
  ],
  "Something went wrong on the server. Try again later.": [
    "Algo falló en el servidor. Vuelve a intentarlo más tarde.",
  ],
  "The server gave an unexpected answer. Try again later.": [
    "El servidor dio una respuesta inesperada. Vuelve a intentarlo más tarde.",
  ],
  "Something went wrong. Try again.": ["Algo falló. Vuelve a intentarlo."],
  // Users table
  "Accounts": ["Cuentas"],
  "Status": ["Estado"],
  "Created": ["Creada"],
  "Actions": ["Acciones"],
  "Actions for %s": ["Acciones de %s"],
  "%d account": ["%d cuenta", "%d cuentas"],
  "%d account matches your search.": [
    "%d cuenta coincide con la búsqueda.",
    "%d cuentas coinciden con la búsqueda.",
  ],
  "Page %1$d of %2$d": ["Página %1$d de %2$d"],
  "Change role…": ["Cambiar rol…"],
  "Disable…": ["Desactivar…"],
  "Sign out everywhere…": ["Cerrar todas sus sesiones…"],
  "Change the role of %s": ["Cambiar el rol de %s"],
  "Changing role…": ["Cambiando rol…"],
  "Disable %s?": ["¿Desactivar a %s?"],
  "Disable account": ["Desactivar cuenta"],
  "Disabling…": ["Desactivando…"],
  "They are signed out everywhere at once and cannot sign in until the account is enabled again.":
    [
      "Se cierran todas sus sesiones al instante y no podrá iniciar sesión hasta que la cuenta vuelva a activarse.",
    ],
  "Sign %s out everywhere?": ["¿Cerrar todas las sesiones de %s?"],
  "Sign out everywhere": ["Cerrar todas sus sesiones"],
  "Every session of this account ends now. They can sign in again with their password.":
    [
      "Todas las sesiones de esta cuenta terminan ahora. Podrá volver a iniciar sesión con su contraseña.",
    ],
  "%s is disabled and signed out everywhere.": [
    "%s está desactivada y sin ninguna sesión abierta.",
  ],
  "%s is enabled.": ["%s está activada."],
  "%1$s now has the role %2$s.": ["%1$s tiene ahora el rol %2$s."],
  "%s is signed out everywhere.": ["Se cerraron todas las sesiones de %s."],

  // Pending invitations
  "Pending invitations": ["Invitaciones pendientes"],
  "Loading invitations…": ["Cargando invitaciones…"],
  "No pending invitations.": ["No hay invitaciones pendientes."],
  "The invitation for %s is revoked.": ["La invitación para %s está revocada."],
  "Invited by %s": ["Invitada por %s"],
  "Invited": ["Invitada"],
  "Expires %s": ["Caduca el %s"],
  "Revoke": ["Revocar"],
  "Revoke the invitation for %s": ["Revocar la invitación para %s"],
  "Revoke the invitation for %s?": ["¿Revocar la invitación para %s?"],
  "Revoke invitation": ["Revocar invitación"],
  "Revoking…": ["Revocando…"],
  "Its link stops working at once. You can invite them again later.": [
    "Su enlace deja de funcionar al instante. Puedes volver a invitar a esa persona más tarde.",
  ],

  // Confirmations and checks
  "Check your inbox": ["Revisa tu correo"],
  "Password changed": ["Contraseña cambiada"],
  "Account created": ["Cuenta creada"],
  "New user": ["Nuevo usuario"],
  "%1$s (%2$s) can now sign in with the password you chose.": [
    "%1$s (%2$s) ya puede iniciar sesión con la contraseña que elegiste.",
  ],
  "Show the account": ["Ver la cuenta"],
  "Create another": ["Crear otra"],
  "Invitation sent": ["Invitación enviada"],
  "Invitation link ready": ["Enlace de invitación listo"],
  "Show pending invitations": ["Ver invitaciones pendientes"],
  "Enter an email address like name@example.com.": [
    "Escribe una dirección de correo como nombre@ejemplo.com.",
  ],
  "This password is too common. Choose one that is harder to guess.": [
    "Esta contraseña es demasiado común. Elige una más difícil de adivinar.",
  ],
  "Use at most %d character.": [
    "Usa como máximo %d carácter.",
    "Usa como máximo %d caracteres.",
  ],
  "Use at least %d character.": [
    "Usa al menos %d carácter.",
    "Usa al menos %d caracteres.",
  ],

  // Account security, second factors, passkeys, audit log
  "This code is not valid. Check it and try again.": [
    "Este código no es válido. Revísalo y vuelve a intentarlo.",
  ],
  "The password is incorrect.": ["La contraseña no es correcta."],
  "Confirm it is you to continue.": ["Confirma que eres tú para continuar."],
  "Your role needs two-step verification. Set it up in your account first.": [
    "Tu rol necesita verificación en dos pasos. Actívala antes en tu cuenta.",
  ],
  "The passkey could not be verified.": [
    "No se ha podido verificar la llave de acceso.",
  ],
  "This passkey was not accepted. Try again, or sign in another way.": [
    "No se ha aceptado esta llave de acceso. Vuelve a intentarlo o inicia sesión de otra forma.",
  ],
  "The passkey was not used: the request was cancelled or timed out, or your device could not confirm it is you. Try again.":
    [
      "No se ha usado la llave de acceso: la solicitud se canceló o caducó, o tu dispositivo no pudo confirmar que eres tú. Vuelve a intentarlo.",
    ],
  "The passkey request expired. Try again.": [
    "La solicitud de la llave de acceso ha caducado. Vuelve a intentarlo.",
  ],
  "This session has already ended. Reload the list.": [
    "Esta sesión ya ha terminado. Recarga la lista.",
  ],
  "This passkey no longer exists. Reload the list.": [
    "Esta llave de acceso ya no existe. Recarga la lista.",
  ],
  "An authenticator app is already set up.": [
    "Ya hay una aplicación de autenticación configurada.",
  ],
  "No authenticator app is set up for this account.": [
    "Esta cuenta no tiene ninguna aplicación de autenticación configurada.",
  ],
  "Enter the code from your authenticator app": [
    "Escribe el código de tu aplicación de autenticación",
  ],
  "Enter a recovery code": ["Escribe un código de recuperación"],
  "Code": ["Código"],
  "Recovery code": ["Código de recuperación"],
  "The six digits your app shows now.": [
    "Los seis dígitos que muestra ahora tu aplicación.",
  ],
  "One of the codes you saved when you set up the app. Each works once.": [
    "Uno de los códigos que guardaste al configurar la aplicación. Cada uno sirve una sola vez.",
  ],
  "Verify": ["Verificar"],
  "Verifying…": ["Verificando…"],
  "Use a passkey": ["Usar una llave de acceso"],
  "Use a recovery code instead": ["Usar un código de recuperación"],
  "Use a code from your app instead": ["Usar un código de la aplicación"],
  "Two-step verification is off.": [
    "La verificación en dos pasos está desactivada.",
  ],
  "Two-step verification": ["Verificación en dos pasos"],
  "On: signing in asks for a code from your authenticator app. Keep your recovery codes somewhere safe; each works once.":
    ["Activada: al iniciar sesión se pide un código de tu aplicación de autenticación. Guarda tus códigos de recuperación en un lugar seguro; cada uno sirve una sola vez."],
  "Off: your password alone signs you in. An authenticator app adds a code that changes every 30 seconds.":
    ["Desactivada: basta con tu contraseña para iniciar sesión. Una aplicación de autenticación añade un código que cambia cada 30 segundos."],
  "New recovery codes": ["Nuevos códigos de recuperación"],
  "%d recovery code left.": [
    "Te queda %d código de recuperación.",
    "Te quedan %d códigos de recuperación.",
  ],
  "No recovery codes left.": ["No te quedan códigos de recuperación."],
  "Generate new ones so a lost phone cannot lock you out.": [
    "Genera otros nuevos para que un teléfono perdido no te deje fuera.",
  ],
  "Turn off…": ["Desactivar…"],
  "Set up an authenticator app": ["Configurar una aplicación de autenticación"],
  "Scan this code with your authenticator app, or type the key into it. Then enter the code the app shows.":
    ["Escanea este código con tu aplicación de autenticación o escribe en ella la clave. Después escribe el código que muestre la aplicación."],
  "QR code for your authenticator app": [
    "Código QR para tu aplicación de autenticación",
  ],
  "Key": ["Clave"],
  "Turn on": ["Activar"],
  "Turning on…": ["Activando…"],
  "Turn off two-step verification?": [
    "¿Desactivar la verificación en dos pasos?",
  ],
  "Turn off": ["Desactivar"],
  "Turning off…": ["Desactivando…"],
  "Your authenticator app and your recovery codes stop working. Your password alone will sign you in.":
    ["Tu aplicación de autenticación y tus códigos de recuperación dejarán de funcionar. Bastará con tu contraseña para iniciar sesión."],
  "The codes are copied.": ["Códigos copiados."],
  "Copying failed: select the codes and copy them.": [
    "No se han podido copiar: selecciona los códigos y cópialos.",
  ],
  "Save these recovery codes somewhere safe. Each signs you in once if you lose your phone. They are shown only now.":
    ["Guarda estos códigos de recuperación en un lugar seguro. Cada uno te deja entrar una vez si pierdes el teléfono. Solo se muestran ahora."],
  "Copy codes": ["Copiar códigos"],
  "Download codes": ["Descargar códigos"],
  "I saved them": ["Ya los he guardado"],
  "Audit log": ["Registro de auditoría"],
  "Your account may not read the audit log.": [
    "Tu cuenta no puede leer el registro de auditoría.",
  ],
  "Filter events": ["Filtrar eventos"],
  "Account email": ["Correo de la cuenta"],
  "Not an email address": ["No es una dirección de correo"],
  "Event": ["Evento"],
  "All events": ["Todos los eventos"],
  "Filter": ["Filtrar"],
  "Loading events…": ["Cargando eventos…"],
  "No events match.": ["Ningún evento coincide."],
  "Events, newest first": ["Eventos, los más recientes primero"],
  "Time": ["Hora"],
  "By": ["Autor"],
  "Account": ["Cuenta"],
  "Address": ["Dirección IP"],
  "Unknown address": ["Dirección desconocida"],
  "Recent activity": ["Actividad reciente"],
  "Loading activity…": ["Cargando la actividad…"],
  "Nothing yet.": ["Todavía nada."],
  "Account: %s": ["Cuenta: %s"],
  "By an administrator": ["Por un administrador"],
  "Confirm it is you": ["Confirma que eres tú"],
  "Confirm": ["Confirmar"],
  "Confirming…": ["Confirmando…"],
  "For your safety, this needs a recent proof of who you are.": [
    "Por tu seguridad, esto requiere que hayas demostrado hace poco quién eres.",
  ],
  "Use your password instead": ["Usar tu contraseña"],
  "Unknown device": ["Dispositivo desconocido"],
  "%1$s on %2$s": ["%1$s en %2$s"],
  "The session on %s has ended.": ["La sesión en %s ha terminado."],
  "Every other session has ended.": ["Todas las demás sesiones han terminado."],
  "Where you are signed in": ["Dónde tienes la sesión iniciada"],
  "Loading sessions…": ["Cargando sesiones…"],
  "This device": ["Este dispositivo"],
  "Signed in %s": ["Inicio: %s"],
  "Last seen %s": ["Último uso: %s"],
  "End the session on %s": ["Cerrar la sesión en %s"],
  "End": ["Cerrar"],
  "Sign out everywhere else": ["Cerrar las demás sesiones"],
  "Sign out everywhere else?": ["¿Cerrar las demás sesiones?"],
  "Every other browser and device signed in to your account is signed out now. This one stays signed in.":
    ["Todos los demás navegadores y dispositivos con tu cuenta abierta cierran sesión ahora. Este sigue con la sesión iniciada."],
  "Your password is changed. Your other sessions have ended.": [
    "Tu contraseña ha cambiado. Tus demás sesiones han terminado.",
  ],
  "Current password": ["Contraseña actual"],
  "Your sign-in took too long or had too many wrong codes. Sign in again.": [
    "El inicio de sesión ha tardado demasiado o ha tenido demasiados códigos incorrectos. Vuelve a iniciar sesión.",
  ],
  "Sign in with a passkey": ["Iniciar sesión con una llave de acceso"],
  "Signed in": ["Inicio de sesión"],
  "Failed sign-in": ["Inicio de sesión fallido"],
  "Sign-in blocked after too many attempts": [
    "Inicio de sesión bloqueado tras demasiados intentos",
  ],
  "Sign-in paused after too many failed attempts": [
    "Inicio de sesión pausado tras demasiados intentos fallidos",
  ],
  "Sign-in unlocked by an administrator": [
    "Inicio de sesión desbloqueado por un administrador",
  ],
  "Signed out": ["Cierre de sesión"],
  "Session ended": ["Sesión cerrada"],
  "Password reset requested": ["Restablecimiento de contraseña solicitado"],
  "Password reset": ["Contraseña restablecida"],
  "Identity confirmed again": ["Identidad confirmada de nuevo"],
  "Account disabled": ["Cuenta desactivada"],
  "Account enabled": ["Cuenta activada"],
  "Role changed": ["Rol cambiado"],
  "Signed out everywhere": ["Sesiones cerradas en todas partes"],
  "Invitation accepted": ["Invitación aceptada"],
  "Invitation revoked": ["Invitación revocada"],
  "Two-step verification turned on": ["Verificación en dos pasos activada"],
  "Two-step verification turned off": ["Verificación en dos pasos desactivada"],
  "Recovery code used": ["Código de recuperación usado"],
  "Passkey added": ["Llave de acceso añadida"],
  "Passkey removed": ["Llave de acceso eliminada"],
  "Single sign-on identity linked": [
    "Identidad de inicio de sesión único vinculada",
  ],
  "Single sign-on identity unlinked": [
    "Identidad de inicio de sesión único desvinculada",
  ],
  "Role from the sign-in provider not applied, to keep an administrator": [
    "Rol del proveedor de inicio de sesión no aplicado, para conservar un administrador",
  ],
  "Name or email language changed": [
    "Nombre o idioma de los correos cambiado",
  ],
  "The passkey %s is added.": ["Se ha añadido la llave de acceso %s."],
  "Passkeys": ["Llaves de acceso"],
  "No passkeys yet.": ["Todavía no hay llaves de acceso."],
  "Name of the new passkey": ["Nombre de la nueva llave de acceso"],
  "For example the device it is on.": [
    "Por ejemplo, el dispositivo en el que está.",
  ],
  "Add a passkey": ["Añadir una llave de acceso"],
  "Passkey": ["Llave de acceso"],
  "This device already holds a passkey for your account. Use it to sign in, or add a passkey from another device.":
    [
      "Este dispositivo ya tiene una llave de acceso de tu cuenta. Úsala para iniciar sesión o añade una llave de acceso desde otro dispositivo.",
    ],
  "Adding…": ["Añadiendo…"],
  "The passkey is now called %s.": ["La llave de acceso ahora se llama %s."],
  "The passkey %s is removed.": ["Se ha eliminado la llave de acceso %s."],
  "Added %s": ["Añadida el %s"],
  "Never used": ["Sin usar"],
  "Last used %s": ["Último uso: %s"],
  "Rename %s": ["Renombrar %s"],
  "Rename": ["Renombrar"],
  "Remove %s": ["Eliminar %s"],
  "Remove": ["Eliminar"],
  "Renaming…": ["Renombrando…"],
  "Remove %s?": ["¿Eliminar %s?"],
  "Remove passkey": ["Eliminar llave de acceso"],
  "Removing…": ["Eliminando…"],
  "This passkey will no longer sign you in.": [
    "Esta llave de acceso ya no te permitirá iniciar sesión.",
  ],
  "%s can sign in with their password alone now.": [
    "%s ya puede iniciar sesión solo con su contraseña.",
  ],
  "Remove second factor…": ["Quitar el segundo factor…"],
  "Unlock": ["Desbloquear"],
  "%s can sign in again.": ["%s ya puede volver a iniciar sesión."],
  "Locked until %s": ["Bloqueada hasta %s"],
  "Activity": ["Actividad"],
  "Remove the second factor of %s?": ["¿Quitar el segundo factor de %s?"],
  "Remove second factor": ["Quitar el segundo factor"],
  "Their authenticator app, recovery codes and passkeys stop working. Do this only when you are sure who is asking, for example for a lost phone.":
    ["Su aplicación de autenticación, sus códigos de recuperación y sus llaves de acceso dejarán de funcionar. Hazlo solo si sabes con certeza quién lo pide, por ejemplo por un teléfono perdido."],

  // Single sign-on
  "This address must sign in with its organisation's single sign-on.": [
    "Esta dirección debe iniciar sesión con el inicio de sesión único de su organización.",
  ],
  "This is the only way left to sign in to your account, so it stays linked. Add a passkey or a password first.":
    ["Es la única forma que le queda a tu cuenta para iniciar sesión, así que sigue vinculada. Añade antes una llave de acceso o una contraseña."],
  "This identity is no longer linked. Reload the list.": [
    "Esta identidad ya no está vinculada. Recarga la lista.",
  ],
  "This sign-in provider is no longer offered. Reload the page.": [
    "Este proveedor de inicio de sesión ya no está disponible. Recarga la página.",
  ],
  "Your organisation's sign-in cannot be reached. Try again later, or sign in another way.":
    ["No se puede contactar con el inicio de sesión de tu organización. Vuelve a intentarlo más tarde o inicia sesión de otra forma."],
  "Signing in with your organisation took too long or was interrupted. Try again.":
    ["El inicio de sesión con tu organización tardó demasiado o se interrumpió. Vuelve a intentarlo."],
  "Your organisation's sign-in was cancelled or refused. Try again, or ask your administrator.":
    ["El inicio de sesión de tu organización se canceló o se rechazó. Vuelve a intentarlo o consulta a tu administrador."],
  "The answer from your organisation's sign-in could not be verified. Try again; if it keeps happening, tell your administrator.":
    ["No se pudo verificar la respuesta del inicio de sesión de tu organización. Vuelve a intentarlo; si sigue ocurriendo, avisa a tu administrador."],
  "Your organisation's sign-in has not confirmed your email address, so it cannot sign you in here. Confirm it there, or ask your administrator.":
    ["El inicio de sesión de tu organización no ha confirmado tu dirección de correo, así que no puede iniciar tu sesión aquí. Confírmala allí o consulta a tu administrador."],
  "No account here belongs to the identity you used. Ask an administrator to invite you, or use the identity linked to your account.":
    ["Ninguna cuenta de aquí corresponde a la identidad que usaste. Pide a un administrador que te invite o usa la identidad vinculada a tu cuenta."],
  "This account is disabled. Ask an administrator to enable it.": [
    "Esta cuenta está desactivada. Pide a un administrador que la active.",
  ],
  "This sign-in provider may not sign in addresses of your email's domain here. Sign in another way, or ask your administrator.":
    ["Este proveedor de inicio de sesión no puede iniciar sesión aquí con direcciones del dominio de tu correo. Inicia sesión de otra forma o consulta a tu administrador."],
  "Signing in with your organisation did not work. Try again.": [
    "No se pudo iniciar sesión con tu organización. Vuelve a intentarlo.",
  ],
  "Addresses at %1$s sign in with %2$s.": [
    "Las direcciones de %1$s inician sesión con %2$s.",
  ],
  "Sign in with %s": ["Iniciar sesión con %s"],
  "This address must sign in with %s.": [
    "Esta dirección debe iniciar sesión con %s.",
  ],
  "Single sign-on": ["Inicio de sesión único"],
  "No identity at your organisation's sign-in is linked to this account.": [
    "Ninguna identidad del inicio de sesión de tu organización está vinculada a esta cuenta.",
  ],
  "Your identity at %s is unlinked.": [
    "Se ha desvinculado tu identidad de %s.",
  ],
  "Linked %s": ["Vinculada el %s"],
  "Unlink %s": ["Desvincular %s"],
  "Unlink": ["Desvincular"],
  "Unlink %s?": ["¿Desvincular %s?"],
  "Unlinking…": ["Desvinculando…"],
  "You will no longer sign in to this account with %s.": [
    "Ya no iniciarás sesión en esta cuenta con %s.",
  ],
  "Or confirm at your organisation's sign-in: you come back to this page, then do it again.":
    ["O confirma en el inicio de sesión de tu organización: vuelves a esta página y, después, lo haces de nuevo."],
  "Confirm at your organisation's sign-in: you come back to this page, then do it again.":
    ["Confirma en el inicio de sesión de tu organización: vuelves a esta página y, después, lo haces de nuevo."],
  "You sign in with your organisation's single sign-on, so your account has no password. To set one, request a reset link from the sign-in page with “Forgot password?”, unless your organisation requires its single sign-on.":
    ["Inicias sesión con el inicio de sesión único de tu organización, así que tu cuenta no tiene contraseña. Para tener una, pide un enlace de restablecimiento desde la página de inicio de sesión con «¿Olvidaste tu contraseña?», salvo que tu organización exija su inicio de sesión único."],
  "Confirm with %s": ["Confirmar con %s"],
  "Through %s": ["A través de %s"],
};
