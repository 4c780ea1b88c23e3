import type { VoiceErrorCode, VoiceErrorPayload } from '../../protocol/messages';
import { PROVIDER_PRESETS, type ProviderSettings, type VoiceSettings } from '../../protocol/settings';
import { errorTextOf } from '../llm/errors';

/** Where and how to send a recording for speech-to-text. */
export interface TranscriptionConfig {
  baseUrl: string;
  apiKey?: string;
  model: string;
  language?: string;
  timeoutSeconds: number;
}

/** A voice failure whose message is written for the person holding the microphone. */
export class VoiceError extends Error {
  constructor(
    readonly code: VoiceErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'VoiceError';
  }

  toPayload(): VoiceErrorPayload {
    return { code: this.code, error: this.message };
  }
}

/**
 * A whole recording is uploaded and transcribed before the first byte comes back, which takes
 * longer than a chat model's first token; a chat timeout tuned for a fast local model would cut
 * transcriptions short, so it never goes below this.
 */
const MIN_TIMEOUT_SECONDS = 60;

/** Shorter than this, MediaRecorder has produced little more than a header: nothing was said. */
const MIN_DURATION_MS = 300;

// ---- Which server ---------------------------------------------------------------------------

/**
 * Which server transcribes: Settings → Voice, else the chat provider's (OpenAI-compatible only).
 * The chat key is reused only when the transcription URL has the chat provider's origin, so a key
 * never follows the user to a server it was not issued for.
 */
export function resolveTranscriptionConfig(voice: VoiceSettings, chat: ProviderSettings | undefined): TranscriptionConfig {
  const baseUrl = trimSlashes(voice.whisperBaseUrl?.trim() || chatTranscriptionUrl(chat));
  const apiKey = voice.whisperApiKey?.trim() || reusableChatKey(chat, baseUrl);
  const language = voice.language?.trim();
  return {
    baseUrl,
    ...(apiKey ? { apiKey } : {}),
    model: voice.whisperModel,
    ...(language ? { language } : {}),
    timeoutSeconds: Math.max(MIN_TIMEOUT_SECONDS, chat?.timeoutSeconds ?? 0),
  };
}

function chatTranscriptionUrl(chat: ProviderSettings | undefined): string {
  if (!chat) {
    throw new VoiceError(
      'NOT_CONFIGURED',
      'Voice input needs a transcription server. Set a Whisper server URL in Settings → Voice, or set up a chat provider in Settings first.',
    );
  }
  const preset = PROVIDER_PRESETS[chat.provider];
  if (preset.wire !== 'openai') {
    throw new VoiceError(
      'NOT_CONFIGURED',
      `${preset.label} has no speech-to-text. Set a Whisper server URL in Settings → Voice ` +
        '(for example https://api.openai.com/v1 with an OpenAI key), or switch Voice to the browser’s speech recognition.',
    );
  }
  return chat.baseUrl;
}

function reusableChatKey(chat: ProviderSettings | undefined, transcriptionUrl: string): string | undefined {
  const key = chat?.apiKey?.trim();
  if (!chat || !key) return undefined;
  return sameOrigin(chat.baseUrl, transcriptionUrl) ? key : undefined;
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    // An unparsable URL is not known to be the same server, so the key stays home.
    return false;
  }
}

function trimSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}

// ---- The request ----------------------------------------------------------------------------

const FILE_EXTENSIONS: ReadonlyArray<[prefix: string, extension: string]> = [
  ['audio/webm', 'webm'],
  ['audio/ogg', 'ogg'],
  ['audio/wav', 'wav'],
  ['audio/x-wav', 'wav'],
  ['audio/wave', 'wav'],
  ['audio/mp4', 'mp4'],
  ['audio/mpeg', 'mp3'],
];

/** OpenAI infers the audio format from the file name's extension, not from the content type. */
export function audioFileName(mimeType: string): string {
  const type = mimeType.trim().toLowerCase();
  const match = FILE_EXTENSIONS.find(([prefix]) => type === prefix || type.startsWith(`${prefix};`));
  return `recording.${match?.[1] ?? 'webm'}`;
}

export interface TranscribeOptions {
  signal?: AbortSignal;
  durationMs?: number;
  /** Told what the server counted (gpt-4o-transcribe reports tokens; whisper-1 only seconds: undefined). */
  onUsage?: (usage: { inputTokens: number; outputTokens: number } | undefined) => void;
}

/**
 * Sends one recording to `${baseUrl}/audio/transcriptions` and returns the trimmed text. Fails
 * with a VoiceError that tells the user what to do, or with an AbortError when `signal` fires
 * (the caller treats that as the user cancelling).
 */
export async function transcribe(
  config: TranscriptionConfig,
  audio: Uint8Array,
  mimeType: string,
  options: TranscribeOptions = {},
): Promise<string> {
  if (options.signal?.aborted) throw cancelled();
  if (audio.byteLength === 0 || (options.durationMs !== undefined && options.durationMs < MIN_DURATION_MS)) {
    throw new VoiceError('EMPTY_AUDIO', 'Nothing was recorded — check that the right microphone is selected.');
  }
  const url = `${trimSlashes(config.baseUrl)}/audio/transcriptions`;
  const call = new TranscriptionCall(config, options.signal);
  try {
    const { status, body } = await call.run(() => post(url, config, audio, mimeType, call.signal));
    if (status < 200 || status >= 300) throw errorForStatus(status, body, url);
    const transcript = transcriptOf(body);
    options.onUsage?.(tokenUsageOf(body));
    return transcript;
  } finally {
    call.finish();
  }
}

function post(url: string, config: TranscriptionConfig, audio: Uint8Array, mimeType: string, signal: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = {};
  const key = config.apiKey?.trim();
  if (key) headers.Authorization = `Bearer ${key}`;
  // No Content-Type header: fetch writes it, with the multipart boundary.
  return fetch(url, { method: 'POST', headers, body: formFor(config, audio, mimeType), signal });
}

function formFor(config: TranscriptionConfig, audio: Uint8Array, mimeType: string): FormData {
  const form = new FormData();
  // slice() copies into a plain ArrayBuffer, which is what Blob accepts (not a SharedArrayBuffer view).
  form.append('file', new Blob([audio.slice()], { type: mimeType }), audioFileName(mimeType));
  form.append('model', config.model);
  form.append('response_format', 'json');
  if (config.language?.trim()) form.append('language', config.language.trim());
  return form;
}

/**
 * One request under a deadline that covers the upload, the server's work and the reply, and that
 * the caller's signal can cancel at any point.
 */
class TranscriptionCall {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly detach: () => void;

  constructor(
    private readonly config: TranscriptionConfig,
    userSignal?: AbortSignal,
  ) {
    const onUserAbort = () => this.controller.abort('cancel');
    userSignal?.addEventListener('abort', onUserAbort, { once: true });
    this.detach = () => userSignal?.removeEventListener('abort', onUserAbort);
    this.timer = setTimeout(() => this.controller.abort('timeout'), config.timeoutSeconds * 1000);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Sends the request and reads the whole reply, turning aborts and dropped connections into errors for the user. */
  async run(send: () => Promise<Response>): Promise<{ status: number; body: string }> {
    let response: Response;
    try {
      response = await send();
    } catch {
      throw this.abortError() ?? serverDown(`Can't reach the transcription server at ${this.config.baseUrl}. Is it running?`);
    }
    try {
      return { status: response.status, body: await response.text() };
    } catch {
      throw this.abortError() ?? serverDown('The connection to the transcription server dropped before it answered. Try again.');
    }
  }

  finish(): void {
    clearTimeout(this.timer);
    this.detach();
  }

  private abortError(): Error | undefined {
    if (!this.signal.aborted) return undefined;
    if (this.signal.reason === 'timeout') {
      return new VoiceError('TIMEOUT', `The transcription server did not answer within ${this.config.timeoutSeconds} s.`);
    }
    return cancelled();
  }
}

function serverDown(message: string): VoiceError {
  return new VoiceError('SERVER_DOWN', message);
}

function cancelled(): DOMException {
  return new DOMException('Voice input was cancelled.', 'AbortError');
}

function errorForStatus(status: number, body: string, url: string): VoiceError {
  const text = errorTextOf(body);
  if (status === 401 || status === 403) {
    return new VoiceError('BAD_KEY', 'The transcription server refused the API key. Check Settings → Voice.');
  }
  if (status === 404) {
    return new VoiceError('TRANSCRIPTION_FAILED', `No transcription endpoint at ${url} — is it an OpenAI-compatible speech-to-text server?`);
  }
  if (status >= 500) {
    const detail = text ? `: ${text.replace(/[.!\s]+$/, '')}.` : '.';
    return serverDown(`The transcription server failed (HTTP ${status})${detail} Try again in a moment.`);
  }
  const reason = text || `HTTP ${status}`;
  return new VoiceError('TRANSCRIPTION_FAILED', `The transcription server rejected the audio: ${reason}`);
}

function transcriptOf(body: string): string {
  const text = textField(body);
  if (text === undefined) {
    throw new VoiceError(
      'TRANSCRIPTION_FAILED',
      'The transcription server answered with something other than a transcript (expected JSON with a “text” field). Is it an OpenAI-compatible speech-to-text server?',
    );
  }
  const transcript = text.trim();
  if (!transcript) throw new VoiceError('EMPTY_AUDIO', "I didn't catch any words. Try again, a little closer to the microphone.");
  return transcript;
}

function tokenUsageOf(body: string): { inputTokens: number; outputTokens: number } | undefined {
  try {
    const usage = (JSON.parse(body) as { usage?: { type?: string; input_tokens?: unknown; output_tokens?: unknown } }).usage;
    if (usage?.type !== 'tokens' || typeof usage.input_tokens !== 'number' || typeof usage.output_tokens !== 'number') return undefined;
    return { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens };
  } catch {
    return undefined;
  }
}

function textField(body: string): string | undefined {
  try {
    const json: unknown = JSON.parse(body);
    const text = json && typeof json === 'object' ? (json as { text?: unknown }).text : undefined;
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined; // Not JSON: the caller reports it as an unreadable reply.
  }
}

// ---- The sidebar's audio --------------------------------------------------------------------

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The sidebar sends its recording base64-encoded over the Port; this turns it back into bytes. */
export function decodeAudio(base64: string): Uint8Array {
  // atob() quietly accepts missing padding and stray whitespace; a damaged recording should say so.
  if (!BASE64.test(base64)) {
    throw new VoiceError('TRANSCRIPTION_FAILED', 'The recording arrived damaged (it is not valid base64). Please record again.');
  }
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
