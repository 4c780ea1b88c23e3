/**
 * Browser speech mode's own clock, with a recognizer that behaves as Chromium's does (it starts,
 * captures audio, delivers results, ends after stop) or as a stuck one does (it starts and then
 * says nothing). The real recognizer runs in the E2E suite; Debian's Chromium has no speech
 * service, so only its failure can be seen there.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_VOICE_SETTINGS } from '../../../src/protocol';
import { voice, VoiceController } from '../../../src/sidebar/voice/controller';
import { initialVoiceState } from '../../../src/sidebar/voice/machine';

class FakeRecognition {
  static last: FakeRecognition | undefined;
  lang = '';
  continuous = false;
  interimResults = false;
  onresult: ((event: { resultIndex: number; results: Array<{ isFinal: boolean; 0: { transcript: string } }> }) => void) | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  onend: (() => void) | null = null;
  onaudiostart: (() => void) | null = null;
  calls: string[] = [];

  constructor() {
    FakeRecognition.last = this;
  }
  start(): void {
    this.calls.push('start');
  }
  /** As Chromium does, in a later task: the last words, then the end event. */
  stop(): void {
    this.calls.push('stop');
    setTimeout(() => {
      this.onresult?.({ resultIndex: 0, results: [{ isFinal: true, 0: { transcript: 'last words' } }] });
      this.onend?.();
    });
  }
  /** As Chromium does, in a later task: an 'aborted' error, then the end event. */
  abort(): void {
    this.calls.push('abort');
    setTimeout(() => {
      this.onerror?.({ error: 'aborted' });
      this.onend?.();
    });
  }
}

function speechController(maxSeconds = 60) {
  const draft = { value: '' };
  const sent: string[] = [];
  const controller = new VoiceController({
    send: (message) => {
      sent.push(message.type);
      return 'request-1';
    },
    draft,
    settings: () => ({ ...DEFAULT_VOICE_SETTINGS, mode: 'speech', language: 'en-GB', maxSeconds, autoSend: false, hasWhisperKey: false }),
    sendDraft: () => undefined,
  });
  return { controller, draft, sent };
}

/** The mic button, then the background's go-ahead; resolves once the recognizer has been started. */
async function startListening(controller: VoiceController): Promise<FakeRecognition> {
  controller.toggle();
  controller.handle({ type: 'VOICE_STARTED', requestId: 'request-1', payload: { mode: 'speech' } } as Parameters<VoiceController['handle']>[0]);
  await vi.waitFor(() => expect(FakeRecognition.last?.calls).toContain('start'));
  return FakeRecognition.last!;
}

describe('VoiceController in browser speech mode', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance', 'Date'] });
    vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
    FakeRecognition.last = undefined;
    voice.value = initialVoiceState;
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows how long it has listened', async () => {
    const { controller } = speechController();
    const recognition = await startListening(controller);
    recognition.onaudiostart?.();

    await vi.advanceTimersByTimeAsync(3_000);

    expect(voice.value).toMatchObject({ phase: 'recording', mode: 'speech' });
    expect(voice.value.elapsedMs).toBeGreaterThanOrEqual(2_750);
    expect(voice.value.elapsedMs).toBeLessThanOrEqual(3_000);
  });

  it('stops at the longest recording set, keeping the last words in the message box', async () => {
    const { controller, draft } = speechController(5);
    const recognition = await startListening(controller);
    recognition.onaudiostart?.();

    await vi.advanceTimersByTimeAsync(4_500);
    expect(recognition.calls).toEqual(['start']);
    await vi.advanceTimersByTimeAsync(1_000);

    expect(recognition.calls).toEqual(['start', 'stop']);
    expect(draft.value).toBe('last words');
    expect(voice.value).toEqual({ ...initialVoiceState, mode: 'speech' });
  });

  it('gives up on a recognizer that never begins to listen, and says so', async () => {
    const { controller } = speechController();
    const recognition = await startListening(controller);

    await vi.advanceTimersByTimeAsync(10_250);

    expect(recognition.calls).toEqual(['start', 'abort']);
    expect(voice.value.phase).toBe('idle');
    expect(voice.value.error).toEqual({ code: 'TIMEOUT', error: expect.stringContaining("didn't start listening within 10 seconds") });
  });

  it('keeps listening as long as the user speaks once the recognizer has begun', async () => {
    const { controller } = speechController();
    const recognition = await startListening(controller);
    recognition.onaudiostart?.();

    await vi.advanceTimersByTimeAsync(30_000);

    expect(recognition.calls).toEqual(['start']);
    expect(voice.value.phase).toBe('recording');
  });

  it('leaves nothing running once cancelled, even when a stuck recognizer never ends', async () => {
    const { controller } = speechController(5);
    const recognition = await startListening(controller);
    recognition.abort = () => recognition.calls.push('abort');

    controller.cancel();
    await vi.advanceTimersByTimeAsync(20_000);

    expect(recognition.calls).toEqual(['start', 'abort']);
    expect(voice.value).toEqual({ ...initialVoiceState, mode: 'speech' });
    expect(vi.getTimerCount()).toBe(0);
  });
});
