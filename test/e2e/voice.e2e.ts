/**
 * Voice input from the real sidebar with a fake microphone: Chromium plays a WAV of real speech
 * (espeak-ng), Firefox its fake audio device. The provider test server plays Whisper.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/provider-server';
import { browsersUnderTest, sleep, type BrowserName, type JawadBrowser, type LaunchOptions } from './support/extension-browser';
import { backToChat, configureProvider, openView, useFreshBrowserPerTest } from './support/flows';

const SPEECH_WAV = resolve(import.meta.dirname, '../fixtures/speech.wav');

const FAKE_MIC: Record<BrowserName, LaunchOptions> = {
  chromium: { chromiumArgs: ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${SPEECH_WAV}`] },
  firefox: { firefoxPrefs: { 'media.navigator.streams.fake': true, 'media.navigator.permission.disabled': true } },
};
const MIC_DENIED: Record<BrowserName, LaunchOptions> = {
  // No fake UI: headless Chromium cannot show the prompt, so the request is refused.
  chromium: { chromiumArgs: ['--use-fake-device-for-media-stream', '--deny-permission-prompts'] },
  firefox: { firefoxPrefs: { 'media.navigator.streams.fake': true, 'media.navigator.permission.disabled': false, 'permissions.default.microphone': 2 } },
};
const NO_MIC: Record<BrowserName, LaunchOptions> = {
  // Permission granted, but this machine has no sound card and no fake device is offered.
  chromium: { chromiumArgs: ['--use-fake-ui-for-media-stream'] },
  firefox: { firefoxPrefs: { 'media.navigator.streams.fake': false, 'media.navigator.permission.disabled': true, 'media.audio_loopback_dev': '' } },
};

async function draftText(jawad: JawadBrowser): Promise<string> {
  return jawad.sidebar.eval((win) => (win.document.querySelector('#composer-input') as HTMLTextAreaElement).value, null);
}

async function pressMic(jawad: JawadBrowser): Promise<void> {
  await jawad.sidebar.click('button.mic');
}

async function voiceError(jawad: JawadBrowser): Promise<string> {
  return jawad.sidebar.waitFor((win) => (win.document.querySelector('.voice-error') as HTMLElement | null)?.innerText ?? '', null, 'a voice error', 15_000);
}

/** Decodes the uploaded audio in the browser, as a player would: proves a real, playable file. */
async function decodedSeconds(jawad: JawadBrowser, bytes: Buffer): Promise<number> {
  return jawad.host.evaluate(async (base64) => {
    const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const context = new OfflineAudioContext(1, 1, 48_000);
    const audio = await context.decodeAudioData(data.buffer);
    return audio.duration;
  }, bytes.toString('base64'));
}

function filePart(request: RecordedRequest) {
  return request.multipart?.find((part) => part.name === 'file');
}

for (const browserName of browsersUnderTest()) {
  describe(`voice in ${browserName}`, () => {
    const suite = useFreshBrowserPerTest(browserName);

    async function launch(options: LaunchOptions): Promise<JawadBrowser> {
      const jawad = await suite.launch(options);
      await configureProvider(jawad.sidebar, { provider: 'custom', baseUrl: `${suite.provider.url}/v1`, model: 'test-model', apiKey: 'sk-chat-key' });
      await backToChat(jawad.sidebar);
      return jawad;
    }

    it('records from the sidebar, uploads real audio to Whisper, and puts the transcript in the message box', async () => {
      const j = await launch(FAKE_MIC[browserName]);
      await j.sidebar.fill('#composer-input', 'Question:');
      suite.provider.enqueue({ kind: 'transcription', text: 'What is the tide schedule for Bristol tomorrow' });

      await pressMic(j);
      await j.sidebar.waitFor((win) => win.document.querySelector('.voice-bar[data-phase="recording"]'), null, 'recording to start');
      if (browserName === 'chromium') {
        const loudest = await j.sidebar.waitFor(
          (win) => Number(win.document.querySelector('.level')?.getAttribute('aria-valuenow') ?? 0),
          null,
          'the level meter to move',
        );
        expect(loudest).toBeGreaterThan(0);
      } else {
        // Headless Firefox here has no audio output, and the test's click carries no user
        // activation: its AudioContext never leaves "suspended", so the meter reads silence.
        // Recording itself does not depend on it (the upload below is real audio).
        expect(await j.sidebar.eval((win) => win.document.querySelector('.level[role=meter]'), null)).toBe(true);
      }
      await sleep(1500); // the user speaks for 1.5 s: the recording's length, not a wait for anything
      await j.sidebar.click('.voice-bar button', 'Stop');

      await j.sidebar.waitFor((win) => (win.document.querySelector('#composer-input') as HTMLTextAreaElement).value.includes('Bristol'), null, 'the transcript');
      expect(await draftText(j)).toBe('Question: What is the tide schedule for Bristol tomorrow');
      expect(await j.sidebar.eval((win) => win.document.querySelector('.voice-bar'), null)).toBeFalsy();

      const upload = suite.provider.requests.find((r) => r.path === '/v1/audio/transcriptions')!;
      expect(upload.headers.authorization).toBe('Bearer sk-chat-key');
      const file = filePart(upload)!;
      // Whichever container the browser records (WebM or Ogg), name, type and bytes must agree.
      const containers = { webm: '1a45dfa3', ogg: '4f676753' } as const;
      const container = file.contentType?.match(/^audio\/(webm|ogg)/)?.[1] as keyof typeof containers | undefined;
      expect(container, `content type ${file.contentType}`).toBeDefined();
      expect(file.filename).toBe(`recording.${container}`);
      expect(file.data.subarray(0, 4).toString('hex')).toBe(containers[container!]);
      expect(upload.multipart!.find((p) => p.name === 'model')!.data.toString()).toBe('whisper-1');
      expect(await decodedSeconds(j, file.data)).toBeGreaterThan(1);
    });

    it('starts from Alt+V, stops by itself at the time limit, and auto-sends when asked to', async () => {
      const j = await launch(FAKE_MIC[browserName]);
      await openView(j.sidebar, 'Settings');
      await j.sidebar.fill('input[name=maxSeconds]', '5');
      await j.sidebar.click('input[name=autoSend]');
      await j.sidebar.click('form.voice-settings button[type=submit]');
      await j.sidebar.waitFor((win) => win.document.querySelector('.voice-note')?.textContent?.includes('saved'), null, 'voice settings saved');
      await backToChat(j.sidebar);
      suite.provider.enqueue({ kind: 'transcription', text: 'How high is the tide today' }, { kind: 'openai-stream', chunks: ['About 12 metres.'] });

      await j.sidebar.eval((win) => {
        win.dispatchEvent(new win.KeyboardEvent('keydown', { key: 'v', code: 'KeyV', altKey: true, bubbles: true }));
      }, null);
      await j.sidebar.waitFor((win) => win.document.querySelector('.voice-bar[data-phase="recording"]'), null, 'Alt+V to start recording');
      const started = Date.now();
      await j.sidebar.waitFor((win) => win.document.querySelector('.voice-bar[data-phase="transcribing"]') || !win.document.querySelector('.voice-bar'), null, 'the time limit', 15_000);
      expect(Date.now() - started).toBeGreaterThan(4000);

      const answer = await j.sidebar.waitFor(
        (win) => (win.document.querySelector('article.message.assistant[data-status="complete"] .markdown') as HTMLElement | null)?.innerText,
        null,
        'the auto-sent message to be answered',
        15_000,
      );
      expect(answer).toBe('About 12 metres.');
      const chat = suite.provider.requests.find((r) => r.path === '/v1/chat/completions')!;
      const messages = (chat.json as { messages: Array<{ content: string }> }).messages;
      expect(messages.at(-1)!.content).toBe('How high is the tide today');
      expect(await draftText(j)).toBe('');
    });

    it('explains transcription failures and cancels cleanly', async () => {
      const j = await launch(FAKE_MIC[browserName]);
      suite.provider.enqueue({ kind: 'error', status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } });
      await pressMic(j);
      await j.sidebar.waitFor((win) => win.document.querySelector('.voice-bar[data-phase="recording"]'), null, 'recording');
      await sleep(600); // a short recording, as the user makes it
      await j.sidebar.click('.voice-bar button', 'Stop');
      expect(await voiceError(j)).toContain('refused the API key');

      await pressMic(j);
      await j.sidebar.waitFor((win) => win.document.querySelector('.voice-bar[data-phase="recording"]'), null, 'recording again');
      await j.sidebar.click('.voice-bar button', 'Cancel');
      await j.sidebar.waitFor((win) => !win.document.querySelector('.voice-bar'), null, 'the voice bar to close');

      await openView(j.sidebar, 'Settings');
      await j.sidebar.fill('input[name=whisperBaseUrl]', 'http://127.0.0.1:9/v1');
      await j.sidebar.click('form.voice-settings button[type=submit]');
      await j.sidebar.waitFor((win) => win.document.querySelector('.voice-note')?.textContent?.includes('saved'), null, 'voice settings saved');
      await backToChat(j.sidebar);
      await pressMic(j);
      await j.sidebar.waitFor((win) => win.document.querySelector('.voice-bar[data-phase="recording"]'), null, 'recording a third time');
      await sleep(400); // a short recording, as the user makes it
      await j.sidebar.click('.voice-bar button', 'Stop');
      expect(await voiceError(j)).toContain("Can't reach the transcription server at http://127.0.0.1:9/v1");
      expect(await draftText(j)).toBe('');
      // The cancelled recording was never uploaded: the upload after it has come and gone, and the
      // provider still saw only the first one.
      expect(suite.provider.requests.filter((r) => r.path === '/v1/audio/transcriptions')).toHaveLength(1);
    });

    it('says how to allow the microphone when it is blocked, and opens the one-time grant page', async () => {
      const j = await launch(MIC_DENIED[browserName]);
      await pressMic(j);
      const message = await voiceError(j);
      expect(message).toContain("isn't allowed to use the microphone");
      await j.sidebar.click('.voice-error button', 'Allow microphone');
      const grantUrl = `${j.baseUrl}src/grant-mic/index.html`;
      const tabUrls = () => j.host.evaluate(() => browser.tabs.query({}).then((tabs) => tabs.map((tab) => tab.url ?? '')));
      const deadline = Date.now() + 10_000;
      while (!(await tabUrls()).includes(grantUrl) && Date.now() < deadline) await sleep(100);
      expect(await tabUrls()).toContain(grantUrl);
      expect(suite.provider.requests.filter((r) => r.path === '/v1/audio/transcriptions')).toEqual([]);
    });

    it('says so when there is no microphone at all', async () => {
      const j = await launch(NO_MIC[browserName]);
      await pressMic(j);
      expect(await voiceError(j)).toMatch(/No microphone found|in use by another app/);
      expect(suite.provider.requests.filter((r) => r.path === '/v1/audio/transcriptions')).toEqual([]);
    });

    it(browserName === 'firefox' ? 'offers only Whisper, and says why' : 'offers browser speech recognition and reports its failures in words', async () => {
      const j = await launch(FAKE_MIC[browserName]);
      await openView(j.sidebar, 'Settings');
      const speech = await j.sidebar.eval((win) => {
        const radio = win.document.querySelector('input[name=voiceMode][value=speech]') as HTMLInputElement;
        return { disabled: radio.disabled, note: (win.document.querySelector('.voice-settings') as HTMLElement).innerText };
      }, null);
      if (browserName === 'firefox') {
        expect(speech.disabled).toBe(true);
        expect(speech.note).toContain('This browser has no speech recognition API (Firefox has none), so voice input uses Whisper.');
      } else {
        expect(speech.disabled).toBe(false);
        expect(speech.note).not.toContain('no speech recognition API');
        // Debian's Chromium has no Google speech service, so recognition starts and then fails
        // ('audio-capture' here), or under load may never begin to listen, which Jawad gives up on
        // after 10 s; what is covered is that the failure reaches the user in words.
        await j.sidebar.click('input[name=voiceMode][value=speech]');
        await j.sidebar.click('form.voice-settings button[type=submit]');
        await j.sidebar.waitFor((win) => win.document.querySelector('.voice-note')?.textContent?.includes('saved'), null, 'voice settings saved');
        await backToChat(j.sidebar);
        await pressMic(j);
        const code = await j.sidebar.waitFor((win) => win.document.querySelector('.voice-error')?.getAttribute('data-code'), null, 'the recognizer to answer', 15_000);
        expect(['NO_MIC', 'SERVER_DOWN', 'MIC_DENIED', 'TIMEOUT']).toContain(code);
        expect(await voiceError(j)).toMatch(/No microphone found|speech service can't be reached|isn't allowed|didn't start listening within 10 seconds/);
        expect(suite.provider.requests.filter((r) => r.path === '/v1/audio/transcriptions')).toEqual([]);
      }
    });
  });
}
