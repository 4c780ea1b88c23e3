import { signal } from '@preact/signals';
import { DEFAULT_VOICE_SETTINGS, type BackgroundEvent, type PublicVoiceSettings, type VoiceErrorPayload } from '../../protocol';
import type { Outgoing } from '../port-client';
import { appendTranscript, autoStopReason, initialVoiceState, levelOf, micErrorFor, SPEECH_STALLED, speechStopReason, voiceReducer, type VoiceEvent, type VoiceState } from './machine';
import type { MicRecorder } from './recorder';
import type { SpeechSession } from './speech';
import { speechRecognitionAvailable } from './speech-support';

export interface VoiceDeps {
  send: (message: Outgoing) => string;
  draft: { value: string };
  settings: () => PublicVoiceSettings | undefined;
  /** Sends the message box (the "auto-send" setting). */
  sendDraft: () => void;
}

export const voice = signal<VoiceState>(initialVoiceState);

/** How often speech mode's clock ticks: the elapsed time shown, the longest recording, the listening deadline. */
const SPEECH_TICK_MS = 250;

const NOT_SUPPORTED: VoiceErrorPayload = {
  code: 'NOT_SUPPORTED',
  error: 'This browser has no speech recognition. Choose Whisper in Settings → Voice.',
};

/**
 * Voice input in the sidebar. Whisper: record here, the background transcribes. Browser speech:
 * the Web Speech API runs here and streams interim words. Both feed the pure voice machine.
 */
export class VoiceController {
  private recorder: MicRecorder | undefined;
  /** Made in the click that starts recording (see MicRecorder.open). */
  private audioContext: AudioContext | undefined;
  private speech: SpeechSession | undefined;
  private lastSpeechMs = 0;
  private gotFinalSpeech = false;
  private speechClock: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly deps: VoiceDeps) {}

  private get settings() {
    return this.deps.settings() ?? { ...DEFAULT_VOICE_SETTINGS, hasWhisperKey: false };
  }

  private dispatch(event: VoiceEvent): void {
    voice.value = voiceReducer(voice.value, event);
  }

  /** The mic button and its shortcut: start when idle, stop when recording. */
  toggle(): void {
    if (voice.value.phase === 'idle') this.start();
    else if (voice.value.phase === 'recording') void this.stop();
  }

  start(): void {
    const { mode } = this.settings;
    this.dispatch({ type: 'START_REQUESTED', mode });
    if (mode === 'speech' && !speechRecognitionAvailable()) {
      this.dispatch({ type: 'VOICE_ERROR', ...NOT_SUPPORTED });
      return;
    }
    if (mode === 'whisper') {
      void this.audioContext?.close().catch(() => undefined);
      this.audioContext = new AudioContext();
    }
    this.deps.send({ type: 'START_VOICE', payload: { mode } });
  }

  async stop(): Promise<void> {
    if (this.speech) {
      this.speech.stop(); // the recognizer's end event finishes the run
      return;
    }
    const recorder = this.recorder;
    if (!recorder || voice.value.phase !== 'recording') return;
    this.recorder = undefined;
    this.dispatch({ type: 'STOP_REQUESTED' });
    const recording = await recorder.stop();
    const { blobToBase64 } = await import('./recorder');
    const audio = await blobToBase64(recording.blob);
    this.deps.send({ type: 'STOP_VOICE', payload: { cancelled: false, audio, mimeType: recording.mimeType, durationMs: Math.round(recording.durationMs) } });
  }

  cancel(): void {
    const wasWhisper = voice.value.mode === 'whisper' && voice.value.phase !== 'idle';
    void this.audioContext?.close().catch(() => undefined);
    this.audioContext = undefined;
    this.recorder?.cancel();
    this.recorder = undefined;
    this.stopSpeechClock();
    this.speech?.abort();
    this.speech = undefined;
    this.dispatch({ type: 'CANCEL_REQUESTED' });
    if (wasWhisper) this.deps.send({ type: 'STOP_VOICE', payload: { cancelled: true, mimeType: 'audio/webm', durationMs: 0 } });
  }

  /** Follows the background's VOICE_* events. */
  handle(event: BackgroundEvent): void {
    switch (event.type) {
      case 'VOICE_STARTED':
        if (voice.value.phase === 'starting') void this.begin();
        return;
      case 'VOICE_TRANSCRIBING':
        this.dispatch({ type: 'VOICE_TRANSCRIBING' });
        return;
      case 'VOICE_RESULT':
        if (voice.value.phase !== 'transcribing') return;
        this.dispatch({ type: 'VOICE_RESULT', ...event.payload });
        this.deliver(event.payload.transcript);
        return;
      case 'VOICE_ERROR':
        this.dispatch({ type: 'VOICE_ERROR', ...event.payload });
        return;
      case 'VOICE_END':
        if (voice.value.mode === 'whisper') this.dispatch({ type: 'VOICE_END' });
        return;
      default:
        return;
    }
  }

  private async begin(): Promise<void> {
    if (voice.value.mode === 'speech') {
      const { SpeechSession } = await import('./speech');
      this.beginSpeech(SpeechSession);
      return;
    }
    const audioContext = this.audioContext ?? new AudioContext();
    this.audioContext = undefined;
    try {
      const { MicRecorder } = await import('./recorder');
      this.recorder = await MicRecorder.open(audioContext);
    } catch (error) {
      this.dispatch({ type: 'VOICE_ERROR', ...micErrorFor(error as DOMException) });
      this.deps.send({ type: 'STOP_VOICE', payload: { cancelled: true, mimeType: 'audio/webm', durationMs: 0 } });
      return;
    }
    if (voice.value.phase !== 'starting') {
      this.recorder.cancel(); // cancelled while the permission was being asked
      this.recorder = undefined;
      return;
    }
    this.lastSpeechMs = 0;
    this.dispatch({ type: 'VOICE_STARTED', mode: 'whisper' });
    this.recorder.start((samples, elapsedMs) => this.onSamples(samples, elapsedMs));
  }

  private onSamples(samples: Float32Array, elapsedMs: number): void {
    const { level, speaking } = levelOf(samples);
    if (speaking) this.lastSpeechMs = elapsedMs;
    this.dispatch({ type: 'LEVEL', level, elapsedMs, speaking });
    if (autoStopReason(voice.value, this.settings, elapsedMs - this.lastSpeechMs)) void this.stop();
  }

  private beginSpeech(Session: typeof SpeechSession): void {
    this.gotFinalSpeech = false;
    let listening = false;
    try {
      this.speech = new Session(this.settings.language, {
        onResult: (transcript, isFinal) => {
          if (!isFinal) {
            this.dispatch({ type: 'VOICE_SPEECH_RESULT', transcript, isFinal });
            return;
          }
          this.gotFinalSpeech = true;
          this.deps.draft.value = appendTranscript(this.deps.draft.value, transcript);
          this.dispatch({ type: 'VOICE_SPEECH_RESULT', transcript: '', isFinal: true });
        },
        onError: (error) => this.dispatch({ type: 'VOICE_ERROR', ...micErrorFor(error) }),
        onListening: () => {
          listening = true;
        },
        onEnd: () => {
          this.stopSpeechClock();
          this.speech = undefined;
          this.dispatch({ type: 'VOICE_END' });
          if (this.gotFinalSpeech && this.settings.autoSend) this.deps.sendDraft();
        },
      });
      this.speech.start();
      this.dispatch({ type: 'VOICE_STARTED', mode: 'speech' });
      this.startSpeechClock(() => listening);
    } catch (error) {
      this.speech = undefined;
      this.dispatch({ type: 'VOICE_ERROR', ...micErrorFor(error as DOMException) });
    }
  }

  /** Speech mode's own clock: shows how long it has listened and ends a run that ran too long or never began. */
  private startSpeechClock(listening: () => boolean): void {
    this.stopSpeechClock();
    const startedAt = performance.now();
    this.speechClock = setInterval(() => {
      this.dispatch({ type: 'ELAPSED', elapsedMs: performance.now() - startedAt });
      const reason = speechStopReason(voice.value, this.settings, listening());
      if (reason === 'max') {
        this.stopSpeechClock();
        this.speech?.stop(); // its last words still arrive, then its end event
      } else if (reason === 'stalled') {
        this.stopSpeechClock();
        this.dispatch({ type: 'VOICE_ERROR', ...SPEECH_STALLED });
        this.speech?.abort();
      }
    }, SPEECH_TICK_MS);
  }

  private stopSpeechClock(): void {
    clearInterval(this.speechClock);
    this.speechClock = undefined;
  }

  private deliver(transcript: string): void {
    this.deps.draft.value = appendTranscript(this.deps.draft.value, transcript);
    if (this.settings.autoSend) this.deps.sendDraft();
  }
}
