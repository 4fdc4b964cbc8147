// The voice assistant's texts: what the visitor reads comes from the content (content/site.yaml,
// voiceTooltip, voiceFailure, voiceControls); the console lines, for whoever debugs the page, are
// docs/product.md's (§8), Spanish, with 'Error connecting to Vapi' kept in English as the product gives it.
import { voiceControls, type voiceFailure as failureMessage } from 'virtual:site-content';
import { recording } from 'virtual:site-content/assistant';

export {
  voiceTooltip as tooltip,
  voiceFailure as failureMessage,
  voiceControls as controls,
} from 'virtual:site-content';

export type FailureKind = keyof typeof failureMessage;

/**
 * The notice shown before the first call until the visitor accepts it: an AI answers, whether the
 * call is recorded (content/assistant.yaml's `recording`, which the build reads: the recorded
 * variant only when calls are), and that the conversation is kept.
 */
export const consentText = recording
  ? voiceControls.consentTextRecorded
  : voiceControls.consentText;

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
