/**
 * The sidebar's voice flow as a pure state machine: the recorder, the Port and the UI feed it
 * events; it decides what phase the microphone button shows. No browser calls here, so every
 * transition can be tested directly.
 */
import type { VoiceErrorCode, VoiceErrorPayload } from '../../protocol/messages';
import type { VoiceMode, VoiceSettings } from '../../protocol/settings';

export type VoicePhase = 'idle' | 'starting' | 'recording' | 'transcribing';

export interface VoiceState {
  phase: VoicePhase;
  mode: VoiceMode;
  /** Loudness for the level meter, 0..1. */
  level: number;
  elapsedMs: number;
  /** Speech mode: the words recognised so far that may still change. */
  interim: string;
  /** Whether the user has said anything yet; silence only ends a recording after speech. */
  heardSpeech: boolean;
  error?: VoiceErrorPayload;
}

export const initialVoiceState: VoiceState = {
  phase: 'idle',
  mode: 'whisper',
  level: 0,
  elapsedMs: 0,
  interim: '',
  heardSpeech: false,
};

export type VoiceEvent =
  | { type: 'START_REQUESTED'; mode: VoiceMode }
  | { type: 'VOICE_STARTED'; mode: VoiceMode }
  | { type: 'LEVEL'; level: number; elapsedMs: number; speaking: boolean }
  /** Speech mode's clock: the recognizer reports no level, only how long it has run. */
  | { type: 'ELAPSED'; elapsedMs: number }
  | { type: 'STOP_REQUESTED' }
  | { type: 'CANCEL_REQUESTED' }
  | { type: 'VOICE_TRANSCRIBING' }
  | { type: 'VOICE_SPEECH_RESULT'; transcript: string; isFinal: boolean }
  | { type: 'VOICE_RESULT'; transcript: string; isFinal: boolean }
  | { type: 'VOICE_ERROR'; code: VoiceErrorCode; error: string }
  | { type: 'VOICE_END' };

/**
 * Returns the next state, or the same object when the event does not apply to the current phase.
 * Events arriving after a cancel (a late result, a late error) find the machine idle and are
 * dropped, so a cancelled recording never comes back to life.
 */
export function voiceReducer(state: VoiceState, event: VoiceEvent): VoiceState {
  switch (event.type) {
    case 'START_REQUESTED':
      if (state.phase !== 'idle') return state;
      return { ...initialVoiceState, phase: 'starting', mode: event.mode };
    case 'VOICE_STARTED':
      return state.phase === 'starting' ? { ...state, phase: 'recording', mode: event.mode } : state;
    case 'LEVEL':
      return state.phase === 'recording' ? withLevel(state, event) : state;
    case 'ELAPSED':
      return state.phase === 'recording' ? { ...state, elapsedMs: Math.max(0, event.elapsedMs) } : state;
    case 'STOP_REQUESTED':
      // The speech recognizer still delivers its last words after stop(); it ends with VOICE_END.
      if (state.phase !== 'recording' || state.mode === 'speech') return state;
      return { ...state, phase: 'transcribing', level: 0 };
    case 'CANCEL_REQUESTED':
      return state.phase === 'idle' ? state : idle(state);
    case 'VOICE_TRANSCRIBING':
      return state.phase === 'recording' ? { ...state, phase: 'transcribing', level: 0 } : state;
    case 'VOICE_SPEECH_RESULT':
      if (state.phase === 'idle' || state.mode !== 'speech') return state;
      return { ...state, interim: event.isFinal ? '' : event.transcript };
    case 'VOICE_RESULT':
      return withResult(state, event.isFinal);
    case 'VOICE_ERROR':
      return state.phase === 'idle' ? state : idle(state, { code: event.code, error: event.error });
    case 'VOICE_END':
      return state.phase === 'idle' ? state : idle(state, state.error);
  }
}

/** Whether a VOICE_RESULT arriving in this state belongs in the draft (false once cancelled or ended). */
export function resultIsWanted(state: VoiceState): boolean {
  return state.phase !== 'idle';
}

function withLevel(state: VoiceState, event: { level: number; elapsedMs: number; speaking: boolean }): VoiceState {
  return {
    ...state,
    level: clamp01(event.level),
    elapsedMs: Math.max(0, event.elapsedMs),
    heardSpeech: state.heardSpeech || event.speaking,
  };
}

/**
 * The caller moves the text into the draft; here the interim preview is cleared, since those
 * words are now in the draft. A final Whisper transcript ends the run; speech mode keeps
 * listening, because the recognizer finalises phrase by phrase.
 */
function withResult(state: VoiceState, isFinal: boolean): VoiceState {
  if (state.phase === 'idle') return state;
  if (isFinal && state.phase === 'transcribing') return idle(state);
  return { ...state, interim: '' };
}

function idle(state: VoiceState, error?: VoiceErrorPayload): VoiceState {
  return error ? { ...initialVoiceState, mode: state.mode, error } : { ...initialVoiceState, mode: state.mode };
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

// ---- Stopping by itself ---------------------------------------------------------------------

/**
 * Why recording should stop by itself now, if it should. Silence only counts after speech, so a
 * user who takes a moment to begin is not cut off before saying anything.
 */
export function autoStopReason(
  state: VoiceState,
  settings: Pick<VoiceSettings, 'maxSeconds' | 'silenceSeconds'>,
  silentForMs: number,
): 'max' | 'silence' | undefined {
  if (state.phase !== 'recording') return undefined;
  if (state.elapsedMs >= settings.maxSeconds * 1000) return 'max';
  const silenceEnabled = settings.silenceSeconds > 0;
  if (silenceEnabled && state.heardSpeech && silentForMs >= settings.silenceSeconds * 1000) return 'silence';
  return undefined;
}

/** How long the browser's recognizer may take to begin capturing audio; it takes milliseconds when it works. */
export const SPEECH_LISTEN_DEADLINE_MS = 10_000;

/**
 * Why a browser speech run should end now, if it should: it has run as long as a recording may,
 * or the recognizer never began to listen (it neither captured audio nor failed — the user would
 * otherwise watch "Listening" forever). Pauses are the recognizer's own to judge.
 */
export function speechStopReason(
  state: VoiceState,
  settings: Pick<VoiceSettings, 'maxSeconds'>,
  listening: boolean,
): 'max' | 'stalled' | undefined {
  if (state.phase !== 'recording' || state.mode !== 'speech') return undefined;
  if (!listening && state.elapsedMs >= SPEECH_LISTEN_DEADLINE_MS) return 'stalled';
  return state.elapsedMs >= settings.maxSeconds * 1000 ? 'max' : undefined;
}

// ---- Errors ---------------------------------------------------------------------------------

const MIC_DENIED: VoiceErrorPayload = {
  code: 'MIC_DENIED',
  error: "Jawad isn't allowed to use the microphone. Click “Allow microphone” to grant it (once).",
};
const NO_MIC: VoiceErrorPayload = {
  code: 'NO_MIC',
  error: "No microphone found. Plug one in or check your system's sound settings.",
};
const MIC_BUSY: VoiceErrorPayload = {
  code: 'MIC_BUSY',
  error: 'The microphone is in use by another app, or the system blocked it.',
};

/** The recognizer started but never began to listen (see speechStopReason). */
export const SPEECH_STALLED: VoiceErrorPayload = {
  code: 'TIMEOUT',
  error: `The browser's speech recognition didn't start listening within ${SPEECH_LISTEN_DEADLINE_MS / 1000} seconds. Try again, or choose Whisper in Settings → Voice.`,
};

/** DOMException names from getUserMedia and MediaRecorder (Chrome's legacy names included). */
const BY_EXCEPTION_NAME: Record<string, VoiceErrorPayload> = {
  NotAllowedError: MIC_DENIED,
  SecurityError: MIC_DENIED,
  PermissionDeniedError: MIC_DENIED,
  NotFoundError: NO_MIC,
  OverconstrainedError: NO_MIC,
  DevicesNotFoundError: NO_MIC,
  NotReadableError: MIC_BUSY,
  TrackStartError: MIC_BUSY,
  // Firefox reports a device another app holds as AbortError.
  AbortError: MIC_BUSY,
};

/** SpeechRecognitionErrorEvent.error codes. */
const BY_SPEECH_ERROR: Record<string, VoiceErrorPayload> = {
  'not-allowed': MIC_DENIED,
  'service-not-allowed': MIC_DENIED,
  'audio-capture': NO_MIC,
  network: {
    code: 'SERVER_DOWN',
    error: "The browser's speech service can't be reached. Try Whisper in Settings → Voice.",
  },
  'no-speech': {
    code: 'EMPTY_AUDIO',
    error: "I didn't catch any words. Try again, a little closer to the microphone.",
  },
};

/** Maps getUserMedia / MediaRecorder / SpeechRecognition failures to words for the user. */
export function micErrorFor(error: { name?: string; error?: string; message?: string }): VoiceErrorPayload {
  const known = lookup(BY_EXCEPTION_NAME, error.name) ?? lookup(BY_SPEECH_ERROR, error.error);
  if (known) return { ...known };
  const detail = error.message?.trim() || error.error || error.name;
  return { code: 'TRANSCRIPTION_FAILED', error: detail ? detail : 'Voice input failed.' };
}

function lookup(table: Record<string, VoiceErrorPayload>, key: string | undefined): VoiceErrorPayload | undefined {
  // Own keys only, so a name like "constructor" never matches Object.prototype.
  return key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

// ---- Text and level -------------------------------------------------------------------------

/** Puts a transcript into the message box after what the user already typed, one space between. */
export function appendTranscript(draft: string, transcript: string): string {
  return [draft.trim(), transcript.trim()].filter((text) => text !== '').join(' ');
}

/** RMS of normal speech near a laptop mic sits around 0.05–0.25; ×4 spreads that over the meter. */
const LEVEL_GAIN = 4;
/** Below this RMS it is room noise, not a voice. */
const SPEECH_RMS = 0.02;

/** Voice level from analyser samples (time-domain, -1..1) and whether it counts as speech. */
export function levelOf(samples: Float32Array): { level: number; speaking: boolean } {
  if (samples.length === 0) return { level: 0, speaking: false };
  let sumOfSquares = 0;
  for (const sample of samples) sumOfSquares += sample * sample;
  const rms = Math.sqrt(sumOfSquares / samples.length);
  return { level: clamp01(rms * LEVEL_GAIN), speaking: rms > SPEECH_RMS };
}
