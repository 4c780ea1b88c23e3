/**
 * The Web Speech API (Chrome's webkitSpeechRecognition). Not in lib.dom's types, hence the small
 * interface. Loaded only when browser speech starts.
 */
interface RecognitionResult {
  readonly isFinal: boolean;
  readonly 0: { transcript: string };
}
interface RecognitionEvent {
  readonly resultIndex: number;
  readonly results: ArrayLike<RecognitionResult>;
}
interface Recognition {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((event: RecognitionEvent) => void) | null;
  onerror: ((event: { error: string; message?: string }) => void) | null;
  onend: (() => void) | null;
  onaudiostart: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
type RecognitionConstructor = new () => Recognition;

function recognitionConstructor(): RecognitionConstructor | undefined {
  const scope = globalThis as unknown as { SpeechRecognition?: RecognitionConstructor; webkitSpeechRecognition?: RecognitionConstructor };
  return scope.SpeechRecognition ?? scope.webkitSpeechRecognition;
}

export interface SpeechHandlers {
  onResult: (transcript: string, isFinal: boolean) => void;
  onError: (error: { error: string; message?: string }) => void;
  onEnd: () => void;
  /** The recognizer has begun capturing audio. */
  onListening: () => void;
}

/** One recognition run with live interim results; ends on stop() or when the speaker pauses. */
export class SpeechSession {
  private readonly recognition: Recognition;

  constructor(language: string | undefined, handlers: SpeechHandlers) {
    const Constructor = recognitionConstructor();
    if (!Constructor) throw new Error('This browser has no speech recognition.');
    this.recognition = new Constructor();
    this.recognition.lang = language || navigator.language;
    this.recognition.continuous = true;
    this.recognition.interimResults = true;
    this.recognition.onresult = (event) => {
      for (let i = event.resultIndex; i < event.results.length; i++) {
        const result = event.results[i]!;
        handlers.onResult(result[0].transcript, result.isFinal);
      }
    };
    this.recognition.onerror = (event) => handlers.onError(event);
    this.recognition.onend = () => handlers.onEnd();
    this.recognition.onaudiostart = () => handlers.onListening();
  }

  start(): void {
    this.recognition.start();
  }

  stop(): void {
    this.recognition.stop();
  }

  abort(): void {
    this.recognition.abort();
  }
}
