// Every Spanish text of the voice assistant, in one place. The tooltips and the console lines
// are docs/product.md's (§2, §8); 'Error connecting to Vapi' is kept in English as the product gives it.

export const tooltip = {
  idle: 'Habla con nuestro asistente',
  connecting: 'Conectando...',
  inCall: 'Haz clic para finalizar llamada',
} as const;

/** Short messages shown to the visitor when a call cannot start or breaks. */
export const failureMessage = {
  permission: 'Permite el acceso al micrófono para hablar con el asistente.',
  micInUse: 'Tu micrófono está en uso por otra aplicación. Ciérrala e inténtalo de nuevo.',
  unavailable: 'El asistente no está disponible ahora. Inténtalo más tarde.',
} as const;

export type FailureKind = keyof typeof failureMessage;

export const controls = {
  region: 'Asistente de voz',
  mute: 'Silenciar micrófono',
  showCaptions: 'Subtítulos de la conversación',
  closePanel: 'Cerrar subtítulos',
  dismiss: 'Cerrar aviso',
  panelTitle: 'Conversación con el asistente',
  waitingForWords: 'Los subtítulos aparecerán aquí cuando empiece la conversación.',
  assistant: 'Asistente',
  visitor: 'Tú',
  silenceHint: 'No te escuchamos. Revisa que tu micrófono esté conectado y activado.',
  mutedNote: 'Tu micrófono está silenciado.',
  consentTitle: 'Antes de llamar',
  consentAccept: 'Aceptar y llamar',
  consentCancel: 'Cancelar',
} as const;

export const consoleLine = {
  started: 'Llamada iniciada',
  ended: 'Llamada terminada',
  connectFailed: 'Error connecting to Vapi',
  callError: 'Error en la llamada de voz',
  warning: 'Aviso del asistente de voz',
  ejectionIgnored: 'La sala de la llamada se cerró tras terminar (ignorado)',
  configFailed: 'No se pudo leer la configuración del asistente de voz',
  muteFailed: 'No se pudo cambiar el micrófono',
} as const;
