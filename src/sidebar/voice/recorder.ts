/**
 * Microphone capture in the sidebar document: MediaRecorder for the audio, an AnalyserNode for the
 * level meter and silence detection. Audio stays in memory and is dropped after the upload.
 */
export interface Recording {
  blob: Blob;
  mimeType: string;
  durationMs: number;
}

const PREFERRED_TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/webm', 'audio/ogg', 'audio/mp4'];
const LEVEL_INTERVAL_MS = 100;

function supportedMimeType(): string | undefined {
  return PREFERRED_TYPES.find((type) => MediaRecorder.isTypeSupported(type));
}

export class MicRecorder {
  private readonly chunks: Blob[] = [];
  private readonly recorder: MediaRecorder;
  private readonly analyser: AnalyserNode;
  private levelTimer: ReturnType<typeof setInterval> | undefined;
  private startedAt = 0;

  private constructor(
    private readonly stream: MediaStream,
    private readonly audioContext: AudioContext,
  ) {
    const mimeType = supportedMimeType();
    this.recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    this.recorder.addEventListener('dataavailable', (event) => {
      if (event.data.size > 0) this.chunks.push(event.data);
    });
    this.analyser = this.audioContext.createAnalyser();
    this.analyser.fftSize = 2048;
    this.audioContext.createMediaStreamSource(stream).connect(this.analyser);
    // In case the click's activation lapsed while the permission was being decided.
    void this.audioContext.resume().catch(() => undefined);
  }

  /**
   * Asks for the microphone; rejects with the browser's DOMException (NotAllowedError, …).
   * `audioContext` must have been created during the user's click: Firefox keeps an AudioContext
   * made later suspended (autoplay policy), and the level meter would read silence.
   */
  static async open(audioContext: AudioContext): Promise<MicRecorder> {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
      return new MicRecorder(stream, audioContext);
    } catch (error) {
      void audioContext.close().catch(() => undefined);
      throw error;
    }
  }

  /** Starts recording; `onSamples` gets the waveform every 100 ms (a timer: a hidden panel gets no frames). */
  start(onSamples: (samples: Float32Array, elapsedMs: number) => void): void {
    this.startedAt = performance.now();
    this.recorder.start(250);
    const samples = new Float32Array(this.analyser.fftSize);
    this.levelTimer = setInterval(() => {
      this.analyser.getFloatTimeDomainData(samples);
      onSamples(samples, performance.now() - this.startedAt);
    }, LEVEL_INTERVAL_MS);
  }

  stop(): Promise<Recording> {
    const durationMs = performance.now() - this.startedAt;
    return new Promise((resolve) => {
      this.recorder.addEventListener('stop', () => {
        const mimeType = this.recorder.mimeType || this.chunks[0]?.type || 'audio/webm';
        resolve({ blob: new Blob(this.chunks, { type: mimeType }), mimeType, durationMs });
        this.release();
      }, { once: true });
      if (this.recorder.state === 'inactive') this.recorder.dispatchEvent(new Event('stop'));
      else this.recorder.stop();
    });
  }

  cancel(): void {
    if (this.recorder.state !== 'inactive') this.recorder.stop();
    this.chunks.length = 0;
    this.release();
  }

  private release(): void {
    if (this.levelTimer !== undefined) clearInterval(this.levelTimer);
    this.levelTimer = undefined;
    for (const track of this.stream.getTracks()) track.stop();
    void this.audioContext.close().catch(() => undefined);
  }
}

export async function blobToBase64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}
