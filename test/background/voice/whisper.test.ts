import { describe, expect, it } from 'vitest';
import {
  audioFileName,
  decodeAudio,
  resolveTranscriptionConfig,
  transcribe,
  VoiceError,
  type TranscriptionConfig,
} from '../../../src/background/voice/whisper';
import { DEFAULT_VOICE_SETTINGS, defaultSettingsFor, type ProviderSettings, type VoiceSettings } from '../../../src/protocol/settings';
import { freePort } from '../../support/ports';
import { openAIErrorBody, type MultipartPart } from '../../support/provider-server';
import { useProviderServer } from '../../support/use-provider-server';

const provider = useProviderServer();

/** Not a real Opus stream, but distinctive bytes (including 0x00 and 0xff) to check they arrive untouched. */
const AUDIO = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x00, 0xff, 0x0d, 0x0a, 0x2d, 0x2d, 0x42, 0x87]);

function whisperAt(extra: Partial<TranscriptionConfig> = {}): TranscriptionConfig {
  return { baseUrl: `${provider.server.url}/v1`, model: 'whisper-1', timeoutSeconds: 2, ...extra };
}

/** The VoiceError a failed transcription rejects with (fails the test if it resolves or throws something else). */
async function voiceErrorOf(promise: Promise<unknown>): Promise<VoiceError> {
  const error = await promise.then(
    (value) => expect.unreachable(`expected a VoiceError, got ${JSON.stringify(value)}`),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(VoiceError);
  return error as VoiceError;
}

/** What a synchronous call threw (fails the test if it returned). */
function thrownBy(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  return expect.unreachable('expected it to throw');
}

function partNamed(parts: MultipartPart[] | undefined, name: string): MultipartPart | undefined {
  return parts?.find((part) => part.name === name);
}

async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}/v1`;
}

describe('transcribe: what the server receives', () => {
  it('tells what the server counted: gpt-4o-transcribe’s tokens, or nothing from whisper-1', async () => {
    provider.server.enqueue({ kind: 'transcription', text: 'Hi.', usage: { input_tokens: 14, output_tokens: 2 } }, { kind: 'transcription', text: 'Hi.' });
    const seen: unknown[] = [];
    await transcribe(whisperAt(), AUDIO, 'audio/webm', { onUsage: (usage) => seen.push(usage) });
    await transcribe(whisperAt(), AUDIO, 'audio/webm', { onUsage: (usage) => seen.push(usage) });
    expect(seen).toEqual([{ inputTokens: 14, outputTokens: 2 }, undefined]);
  });

  it('posts the recording as multipart with exactly file, model and response_format', async () => {
    provider.server.enqueue({ kind: 'transcription', text: '  Hello there.  ' });

    const text = await transcribe(whisperAt(), AUDIO, 'audio/webm;codecs=opus');

    expect(text).toBe('Hello there.');
    const [request] = provider.server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/audio/transcriptions');
    const parts = request?.multipart;
    expect(parts?.map((part) => part.name).sort()).toEqual(['file', 'model', 'response_format']);
    const file = partNamed(parts, 'file');
    expect(file?.filename).toBe('recording.webm');
    expect(file?.contentType).toBe('audio/webm;codecs=opus');
    expect(new Uint8Array(file?.data ?? [])).toEqual(AUDIO);
    expect(partNamed(parts, 'model')?.data.toString()).toBe('whisper-1');
    expect(partNamed(parts, 'response_format')?.data.toString()).toBe('json');
  });

  it('names an Ogg recording recording.ogg and sends the language hint when one is set', async () => {
    provider.server.enqueue({ kind: 'transcription', text: 'Bonjour' });

    await transcribe(whisperAt({ language: 'fr', model: 'whisper-large-v3' }), AUDIO, 'audio/ogg;codecs=opus');

    const parts = provider.server.requests[0]?.multipart;
    expect(parts?.map((part) => part.name).sort()).toEqual(['file', 'language', 'model', 'response_format']);
    expect(partNamed(parts, 'file')?.filename).toBe('recording.ogg');
    expect(partNamed(parts, 'file')?.contentType).toBe('audio/ogg;codecs=opus');
    expect(partNamed(parts, 'language')?.data.toString()).toBe('fr');
    expect(partNamed(parts, 'model')?.data.toString()).toBe('whisper-large-v3');
  });

  it('sends the key as a Bearer token when there is one, and no Authorization header otherwise', async () => {
    provider.server.setDefault({ kind: 'transcription', text: 'ok' });

    await transcribe(whisperAt({ apiKey: 'sk-voice' }), AUDIO, 'audio/webm');
    await transcribe(whisperAt(), AUDIO, 'audio/webm');

    const [withKey, withoutKey] = provider.server.requests;
    expect(withKey?.headers.authorization).toBe('Bearer sk-voice');
    expect(withoutKey?.headers).not.toHaveProperty('authorization');
  });

  it('tolerates a trailing slash on the base URL', async () => {
    provider.server.enqueue({ kind: 'transcription', text: 'ok' });

    await transcribe(whisperAt({ baseUrl: `${provider.server.url}/v1/` }), AUDIO, 'audio/webm');

    expect(provider.server.requests[0]?.path).toBe('/v1/audio/transcriptions');
  });
});

describe('transcribe: failures, in words for the user', () => {
  it('reports a refused key as BAD_KEY pointing at Settings → Voice', async () => {
    const error = await voiceErrorOf(transcribe(whisperAt({ apiKey: 'bad-key' }), AUDIO, 'audio/webm'));

    expect(error.code).toBe('BAD_KEY');
    expect(error.message).toBe('The transcription server refused the API key. Check Settings → Voice.');
    expect(error.toPayload()).toEqual({ code: 'BAD_KEY', error: error.message });
  });

  it('treats a 403 as a refused key too', async () => {
    provider.server.enqueue({ kind: 'error', status: 403 });

    expect((await voiceErrorOf(transcribe(whisperAt(), AUDIO, 'audio/webm'))).code).toBe('BAD_KEY');
  });

  it('says there is no transcription endpoint on a 404, naming the URL it tried', async () => {
    const baseUrl = `${provider.server.url}/nope`;

    const error = await voiceErrorOf(transcribe(whisperAt({ baseUrl }), AUDIO, 'audio/webm'));

    expect(error.code).toBe('TRANSCRIPTION_FAILED');
    expect(error.message).toBe(
      `No transcription endpoint at ${baseUrl}/audio/transcriptions — is it an OpenAI-compatible speech-to-text server?`,
    );
  });

  it("passes on the server's reason when it rejects the audio", async () => {
    provider.server.enqueue({
      kind: 'error',
      status: 400,
      body: openAIErrorBody('Audio file is too short. Minimum audio length is 0.1 seconds.', 'invalid_request_error'),
    });

    const error = await voiceErrorOf(transcribe(whisperAt(), AUDIO, 'audio/webm'));

    expect(error.code).toBe('TRANSCRIPTION_FAILED');
    expect(error.message).toBe('The transcription server rejected the audio: Audio file is too short. Minimum audio length is 0.1 seconds.');
  });

  it('reports a 500 as SERVER_DOWN with the status', async () => {
    provider.server.enqueue({ kind: 'error', status: 500 });

    const error = await voiceErrorOf(transcribe(whisperAt(), AUDIO, 'audio/webm'));

    expect(error.code).toBe('SERVER_DOWN');
    expect(error.message).toMatch(/^The transcription server failed \(HTTP 500\)/);
  });

  it("says it can't reach a server that is not running", async () => {
    const baseUrl = await closedPortUrl();

    const error = await voiceErrorOf(transcribe(whisperAt({ baseUrl }), AUDIO, 'audio/webm'));

    expect(error.code).toBe('SERVER_DOWN');
    expect(error.message).toBe(`Can't reach the transcription server at ${baseUrl}. Is it running?`);
  });

  it('gives up on a server that never answers after timeoutSeconds', async () => {
    provider.server.enqueue({ kind: 'stall' });
    const started = Date.now();

    const error = await voiceErrorOf(transcribe(whisperAt({ timeoutSeconds: 1 }), AUDIO, 'audio/webm'));

    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toBe('The transcription server did not answer within 1 s.');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('says no words were caught when the transcript is blank', async () => {
    provider.server.enqueue({ kind: 'transcription', text: '  \n ' });

    const error = await voiceErrorOf(transcribe(whisperAt(), AUDIO, 'audio/webm'));

    expect(error.code).toBe('EMPTY_AUDIO');
    expect(error.message).toBe("I didn't catch any words. Try again, a little closer to the microphone.");
  });

  it('reports a reply that is not a JSON transcript as TRANSCRIPTION_FAILED', async () => {
    provider.server.enqueue({ kind: 'error', status: 200, body: 'Hello, I am a web page' });
    provider.server.enqueue({ kind: 'error', status: 200, body: { transcript: 'wrong field' } });

    const notJson = await voiceErrorOf(transcribe(whisperAt(), AUDIO, 'audio/webm'));
    const noText = await voiceErrorOf(transcribe(whisperAt(), AUDIO, 'audio/webm'));

    expect(notJson.code).toBe('TRANSCRIPTION_FAILED');
    expect(noText.code).toBe('TRANSCRIPTION_FAILED');
    expect(noText.message).toContain('“text”');
  });

  it('refuses an empty or too-short recording without contacting the server', async () => {
    const noBytes = await voiceErrorOf(transcribe(whisperAt(), new Uint8Array(), 'audio/webm'));
    const tooShort = await voiceErrorOf(transcribe(whisperAt(), AUDIO, 'audio/webm', { durationMs: 299 }));

    for (const error of [noBytes, tooShort]) {
      expect(error.code).toBe('EMPTY_AUDIO');
      expect(error.message).toBe('Nothing was recorded — check that the right microphone is selected.');
    }
    expect(provider.server.requests).toHaveLength(0);
  });

  it('accepts a recording of exactly 300 ms', async () => {
    provider.server.enqueue({ kind: 'transcription', text: 'Yes' });

    await expect(transcribe(whisperAt(), AUDIO, 'audio/webm', { durationMs: 300 })).resolves.toBe('Yes');
  });
});

describe('transcribe: cancelling', () => {
  it('rejects with an AbortError and sends nothing when the signal has already fired', async () => {
    const controller = new AbortController();
    controller.abort();

    const attempt = transcribe(whisperAt(), AUDIO, 'audio/webm', { signal: controller.signal });

    await expect(attempt).rejects.toMatchObject({ name: 'AbortError' });
    await expect(attempt).rejects.toBeInstanceOf(DOMException);
    expect(provider.server.requests).toHaveLength(0);
  });

  it('rejects with an AbortError, not a timeout, when cancelled while the server is working', async () => {
    provider.server.enqueue({ kind: 'stall' });
    const controller = new AbortController();

    const attempt = transcribe(whisperAt({ timeoutSeconds: 5 }), AUDIO, 'audio/webm', { signal: controller.signal });
    await provider.server.waitForRequests(1);
    controller.abort();

    await expect(attempt).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('resolveTranscriptionConfig', () => {
  const voice = (extra: Partial<VoiceSettings> = {}): VoiceSettings => ({ ...DEFAULT_VOICE_SETTINGS, ...extra });
  const openai: ProviderSettings = { ...defaultSettingsFor('openai'), apiKey: 'sk-chat' };
  const ollama = defaultSettingsFor('ollama');

  it("uses the chat provider's server and key by default", () => {
    expect(resolveTranscriptionConfig(voice(), openai)).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-chat',
      model: 'whisper-1',
      timeoutSeconds: 60,
    });
  });

  it('uses the Voice settings URL, model and language when set', () => {
    const config = resolveTranscriptionConfig(
      voice({ whisperBaseUrl: 'http://localhost:9000/v1', whisperModel: 'Systran/faster-whisper-small', language: 'de' }),
      ollama,
    );

    expect(config).toMatchObject({ baseUrl: 'http://localhost:9000/v1', model: 'Systran/faster-whisper-small', language: 'de' });
  });

  it('reuses the chat key for a transcription URL on the same origin', () => {
    const config = resolveTranscriptionConfig(voice({ whisperBaseUrl: 'https://api.openai.com/v1/' }), openai);

    expect(config.apiKey).toBe('sk-chat');
  });

  it('never sends the chat key to another origin', () => {
    const otherHost = resolveTranscriptionConfig(voice({ whisperBaseUrl: 'https://whisper.example.com/v1' }), openai);
    const otherPort = resolveTranscriptionConfig(
      voice({ whisperBaseUrl: 'http://localhost:9000/v1' }),
      { ...defaultSettingsFor('ollama'), apiKey: 'ollama-key' },
    );

    expect(otherHost.apiKey).toBeUndefined();
    expect(otherPort.apiKey).toBeUndefined();
  });

  it('prefers the Voice settings key over the chat key', () => {
    expect(resolveTranscriptionConfig(voice({ whisperApiKey: 'sk-voice' }), openai).apiKey).toBe('sk-voice');
    const elsewhere = resolveTranscriptionConfig(voice({ whisperBaseUrl: 'https://groq.example/v1', whisperApiKey: 'gsk-1' }), openai);
    expect(elsewhere.apiKey).toBe('gsk-1');
  });

  it('refuses Anthropic, which has no speech-to-text, unless a transcription URL is set', () => {
    const anthropic: ProviderSettings = { ...defaultSettingsFor('anthropic'), apiKey: 'sk-ant' };

    const thrown = thrownBy(() => resolveTranscriptionConfig(voice(), anthropic));
    expect(thrown).toBeInstanceOf(VoiceError);
    expect(thrown).toMatchObject({ code: 'NOT_CONFIGURED' });
    expect((thrown as VoiceError).message).toContain('Settings → Voice');

    const withUrl = resolveTranscriptionConfig(voice({ whisperBaseUrl: 'https://api.openai.com/v1' }), anthropic);
    expect(withUrl).toMatchObject({ baseUrl: 'https://api.openai.com/v1' });
    expect(withUrl.apiKey).toBeUndefined();
  });

  it('refuses when there are no chat settings and no transcription URL', () => {
    expect(thrownBy(() => resolveTranscriptionConfig(voice(), undefined))).toMatchObject({
      code: 'NOT_CONFIGURED',
      message: expect.stringContaining('Settings → Voice'),
    });
    expect(resolveTranscriptionConfig(voice({ whisperBaseUrl: 'http://localhost:9000/v1' }), undefined).baseUrl).toBe(
      'http://localhost:9000/v1',
    );
  });

  it("waits at least a minute, or longer when the chat timeout is longer", () => {
    expect(resolveTranscriptionConfig(voice(), { ...ollama, timeoutSeconds: 10 }).timeoutSeconds).toBe(60);
    expect(resolveTranscriptionConfig(voice(), { ...ollama, timeoutSeconds: 300 }).timeoutSeconds).toBe(300);
  });
});

describe('audioFileName', () => {
  it('picks the extension OpenAI uses to recognise the format', () => {
    expect(audioFileName('audio/webm;codecs=opus')).toBe('recording.webm');
    expect(audioFileName('audio/ogg; codecs=opus')).toBe('recording.ogg');
    expect(audioFileName('audio/wav')).toBe('recording.wav');
    expect(audioFileName('audio/mp4')).toBe('recording.mp4');
    expect(audioFileName('audio/mpeg')).toBe('recording.mp3');
  });

  it('falls back to .webm for an unknown or missing type', () => {
    expect(audioFileName('')).toBe('recording.webm');
    expect(audioFileName('application/octet-stream')).toBe('recording.webm');
  });
});

describe('decodeAudio', () => {
  it('gives back exactly the bytes the sidebar encoded', () => {
    const base64 = Buffer.from(AUDIO).toString('base64');

    expect(decodeAudio(base64)).toEqual(AUDIO);
    expect(decodeAudio('')).toEqual(new Uint8Array());
  });

  it('refuses damaged base64 with TRANSCRIPTION_FAILED', () => {
    for (const damaged of ['not base64!', 'abc', 'YWJj\nZA==', 'YQ=a']) {
      const error = thrownBy(() => decodeAudio(damaged));
      expect(error, damaged).toBeInstanceOf(VoiceError);
      expect((error as VoiceError).code).toBe('TRANSCRIPTION_FAILED');
    }
  });
});
