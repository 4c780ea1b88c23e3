import { childRequestId, type BackgroundEvent, type SidebarRequestOf, type UsageRecord, type VoiceErrorPayload } from '../../protocol';
import type { SettingsStore } from '../../db/settings';
import { decodeAudio, resolveTranscriptionConfig, VoiceError, type TranscribeOptions, type TranscriptionConfig } from './whisper';

type Reply = (event: BackgroundEvent) => void;
type Transcribe = (config: TranscriptionConfig, audio: Uint8Array, mimeType: string, options?: TranscribeOptions) => Promise<string>;

/**
 * The background's half of voice input. Recording happens in the sidebar (see README); the
 * background checks the setup before the mic opens and does the upload, because it holds the key.
 */
export class VoiceService {
  /** The transcription in flight, so a cancel can abort it. */
  private inFlight: AbortController | undefined;

  constructor(
    private readonly settings: SettingsStore,
    private readonly transcribe: Transcribe,
    /** Stores one usage record per transcription, like every model call. */
    private readonly recordUsage?: (record: UsageRecord) => void,
  ) {}

  async start(request: SidebarRequestOf<'START_VOICE'>, reply: Reply): Promise<void> {
    const { requestId } = request;
    if (request.payload.mode === 'whisper') {
      try {
        resolveTranscriptionConfig(await this.settings.loadVoice(), await this.settings.load());
      } catch (error) {
        this.fail(requestId, reply, error);
        return;
      }
    }
    reply({ type: 'VOICE_STARTED', requestId, payload: { mode: request.payload.mode } });
  }

  async stop(request: SidebarRequestOf<'STOP_VOICE'>, reply: Reply): Promise<void> {
    const { requestId, payload } = request;
    this.inFlight?.abort();
    if (payload.cancelled || payload.audio === undefined) {
      reply({ type: 'VOICE_END', requestId, payload: {} });
      return;
    }
    const controller = new AbortController();
    this.inFlight = controller;
    reply({ type: 'VOICE_TRANSCRIBING', requestId, payload: {} });
    try {
      const config = resolveTranscriptionConfig(await this.settings.loadVoice(), await this.settings.load());
      let usage: Parameters<NonNullable<TranscribeOptions['onUsage']>>[0];
      const transcript = await this.transcribe(config, decodeAudio(payload.audio), payload.mimeType, {
        signal: controller.signal,
        durationMs: payload.durationMs,
        onUsage: (counted) => void (usage = counted),
      });
      this.record(requestId, config, usage);
      if (!controller.signal.aborted) reply({ type: 'VOICE_RESULT', requestId, payload: { transcript, isFinal: true } });
    } catch (error) {
      if (!controller.signal.aborted) this.fail(requestId, reply, error);
    } finally {
      if (this.inFlight === controller) this.inFlight = undefined;
    }
    reply({ type: 'VOICE_END', requestId, payload: {} });
  }

  private record(requestId: string, config: TranscriptionConfig, usage: { inputTokens: number; outputTokens: number } | undefined): void {
    this.recordUsage?.({
      requestId: childRequestId(requestId, 'llm'),
      kind: 'transcription',
      provider: 'whisper',
      baseUrl: config.baseUrl,
      model: config.model,
      inputTokens: usage?.inputTokens ?? 0,
      outputTokens: usage?.outputTokens ?? 0,
      cachedInputTokens: 0,
      reasoningTokens: 0,
      ...(usage ? {} : { unreported: true }),
      createdAt: Date.now(),
    });
  }

  private fail(requestId: string, reply: Reply, error: unknown): void {
    const payload: VoiceErrorPayload = error instanceof VoiceError
      ? error.toPayload()
      : { code: 'TRANSCRIPTION_FAILED', error: error instanceof Error ? error.message : String(error) };
    reply({ type: 'VOICE_ERROR', requestId, payload });
  }
}
