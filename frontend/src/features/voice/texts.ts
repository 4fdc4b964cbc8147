// The voice assistant's texts: what the visitor reads comes from the content (content/site.yaml,
// voiceTooltip, voiceFailure, voiceControls); the console lines, for whoever debugs the page, are
// docs/product.md's (§8), Spanish, with 'Error connecting to Vapi' kept in English as the product gives it.
import type { voiceFailure as failureMessage } from 'virtual:site-content';

export {
  voiceTooltip as tooltip,
  voiceFailure as failureMessage,
  voiceControls as controls,
} from 'virtual:site-content';

export type FailureKind = keyof typeof failureMessage;

export const consoleLine = {
  started: 'Llamada iniciada',
  ended: 'Llamada terminada',
  connectFailed: 'Error connecting to Vapi',
  callError: 'Error en la llamada de voz',
  warning: 'Aviso del asistente de voz',
  ejectionIgnored: 'La sala de la llamada se cerró tras terminar (ignorado)',
  configFailed: 'No se pudo leer la configuración del asistente de voz',
  muteFailed: 'No se pudo cambiar el micrófono',
  chatLoadFailed: 'No se pudo cargar el chat con el asistente',
  assistantLoadFailed: 'No se pudo cargar el asistente de voz',
} as const;
