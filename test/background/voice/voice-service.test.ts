import { afterEach, describe, expect, it } from 'vitest';
import { VoiceService } from '../../../src/background/voice/voice-service';
import { transcribe } from '../../../src/background/voice/whisper';
import { JawadDatabase } from '../../../src/db/database';
import { SettingsStore } from '../../../src/db/settings';
import type { BackgroundEvent, UsageRecord } from '../../../src/protocol';
import { useProviderServer } from '../../support/use-provider-server';

const provider = useProviderServer();
const db = new JawadDatabase(`test-${crypto.randomUUID()}`);
afterEach(() => db.settings.clear());

describe('VoiceService usage records', () => {
  it('records each transcription as a model call under the request’s chain', async () => {
    const settings = new SettingsStore(db);
    await settings.saveVoice({ mode: 'whisper', whisperBaseUrl: `${provider.server.url}/v1`, whisperModel: 'gpt-4o-transcribe', autoSend: false, maxSeconds: 60, silenceSeconds: 2 });
    const records: UsageRecord[] = [];
    const voice = new VoiceService(settings, transcribe, (record) => void records.push(record));
    provider.server.enqueue({ kind: 'transcription', text: 'Hello.', usage: { input_tokens: 30, output_tokens: 3 } });
    const replies: BackgroundEvent[] = [];
    const audio = Buffer.from(new Uint8Array(4000).fill(1)).toString('base64');
    await voice.stop({ type: 'STOP_VOICE', requestId: 'user-0000000c', payload: { cancelled: false, audio, mimeType: 'audio/webm', durationMs: 2000 } }, (event) => replies.push(event));
    expect(replies.map((r) => r.type)).toEqual(['VOICE_TRANSCRIBING', 'VOICE_RESULT', 'VOICE_END']);
    expect(records).toEqual([
      expect.objectContaining({ kind: 'transcription', model: 'gpt-4o-transcribe', inputTokens: 30, outputTokens: 3, requestId: expect.stringMatching(/^user-0000000c:llm-[0-9a-f]{8}$/) }),
    ]);
  });
});
