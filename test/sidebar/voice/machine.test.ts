import { describe, expect, it } from 'vitest';
import type { VoiceMode } from '../../../src/protocol/settings';
import {
  appendTranscript,
  autoStopReason,
  initialVoiceState,
  levelOf,
  micErrorFor,
  resultIsWanted,
  SPEECH_LISTEN_DEADLINE_MS,
  speechStopReason,
  voiceReducer,
  type VoiceEvent,
  type VoiceState,
} from '../../../src/sidebar/voice/machine';

function run(events: VoiceEvent[], from: VoiceState = initialVoiceState): VoiceState {
  return events.reduce(voiceReducer, from);
}

function recording(mode: VoiceMode = 'whisper'): VoiceState {
  return run([
    { type: 'START_REQUESTED', mode },
    { type: 'VOICE_STARTED', mode },
  ]);
}

const micDenied: VoiceEvent = { type: 'VOICE_ERROR', code: 'MIC_DENIED', error: 'No microphone for you.' };

describe('voiceReducer: a Whisper recording from start to finish', () => {
  it('starts idle in Whisper mode', () => {
    expect(initialVoiceState).toEqual({ phase: 'idle', mode: 'whisper', level: 0, elapsedMs: 0, interim: '', heardSpeech: false });
  });

  it('goes idle → starting → recording as the background confirms', () => {
    const starting = voiceReducer(initialVoiceState, { type: 'START_REQUESTED', mode: 'whisper' });
    expect(starting.phase).toBe('starting');

    const started = voiceReducer(starting, { type: 'VOICE_STARTED', mode: 'whisper' });
    expect(started).toMatchObject({ phase: 'recording', mode: 'whisper' });
  });

  it('clears the last error, preview, level and time when a new recording starts', () => {
    const previous: VoiceState = {
      ...initialVoiceState,
      level: 0.7,
      elapsedMs: 4000,
      interim: 'old words',
      heardSpeech: true,
      error: { code: 'TIMEOUT', error: 'Too slow.' },
    };

    const starting = voiceReducer(previous, { type: 'START_REQUESTED', mode: 'speech' });

    expect(starting).toEqual({ ...initialVoiceState, phase: 'starting', mode: 'speech' });
    expect(starting).not.toHaveProperty('error');
  });

  it('moves the level meter and the clock while recording, and remembers that speech was heard', () => {
    const quiet = voiceReducer(recording(), { type: 'LEVEL', level: 0.1, elapsedMs: 500, speaking: false });
    expect(quiet).toMatchObject({ level: 0.1, elapsedMs: 500, heardSpeech: false });

    const spoke = voiceReducer(quiet, { type: 'LEVEL', level: 0.8, elapsedMs: 1000, speaking: true });
    const quietAgain = voiceReducer(spoke, { type: 'LEVEL', level: 0, elapsedMs: 1500, speaking: false });

    expect(quietAgain).toMatchObject({ level: 0, elapsedMs: 1500, heardSpeech: true });
  });

  it('keeps the meter between 0 and 1', () => {
    expect(voiceReducer(recording(), { type: 'LEVEL', level: 3, elapsedMs: 10, speaking: true }).level).toBe(1);
    expect(voiceReducer(recording(), { type: 'LEVEL', level: -1, elapsedMs: 10, speaking: false }).level).toBe(0);
  });

  it('shows transcribing as soon as the user stops', () => {
    const stopped = voiceReducer(recording('whisper'), { type: 'STOP_REQUESTED' });

    expect(stopped.phase).toBe('transcribing');
  });

  it('goes back to idle once the transcript arrives, wanting the text in the draft', () => {
    const transcribing = run([{ type: 'STOP_REQUESTED' }, { type: 'VOICE_TRANSCRIBING' }], recording());
    expect(resultIsWanted(transcribing)).toBe(true);

    const done = voiceReducer(transcribing, { type: 'VOICE_RESULT', transcript: 'Hello', isFinal: true });
    const ended = voiceReducer(done, { type: 'VOICE_END' });

    expect(done.phase).toBe('idle');
    expect(ended).toEqual(initialVoiceState);
  });

  it('follows the background into transcribing (e.g. after it stopped at the time limit)', () => {
    expect(voiceReducer(recording(), { type: 'VOICE_TRANSCRIBING' }).phase).toBe('transcribing');
  });

  it('ends in idle when the background says the run is over', () => {
    expect(voiceReducer(recording(), { type: 'VOICE_END' })).toEqual(initialVoiceState);
  });
});

describe('voiceReducer: speech mode', () => {
  it('shows interim words and clears them once they are final', () => {
    const hearing = voiceReducer(recording('speech'), { type: 'VOICE_SPEECH_RESULT', transcript: 'hello wor', isFinal: false });
    expect(hearing.interim).toBe('hello wor');

    const final = voiceReducer(hearing, { type: 'VOICE_SPEECH_RESULT', transcript: 'hello world', isFinal: true });
    expect(final).toMatchObject({ phase: 'recording', interim: '' });
  });

  it('keeps listening after a final phrase, clearing the preview', () => {
    const hearing = voiceReducer(recording('speech'), { type: 'VOICE_SPEECH_RESULT', transcript: 'first phr', isFinal: false });

    const phrase = voiceReducer(hearing, { type: 'VOICE_RESULT', transcript: 'first phrase', isFinal: true });

    expect(phrase).toMatchObject({ phase: 'recording', interim: '' });
    expect(resultIsWanted(hearing)).toBe(true);
  });

  it('stays recording after stop until the recognizer has delivered its last words', () => {
    const stopping = voiceReducer(recording('speech'), { type: 'STOP_REQUESTED' });
    expect(stopping.phase).toBe('recording');

    const lastWords = voiceReducer(stopping, { type: 'VOICE_RESULT', transcript: 'the end', isFinal: true });
    expect(resultIsWanted(stopping)).toBe(true);
    expect(voiceReducer(lastWords, { type: 'VOICE_END' })).toEqual({ ...initialVoiceState, mode: 'speech' });
  });

  it('counts the time it has listened, which the recognizer does not report', () => {
    const listening = voiceReducer(recording('speech'), { type: 'ELAPSED', elapsedMs: 3250 });

    expect(listening).toMatchObject({ phase: 'recording', elapsedMs: 3250 });
    expect(voiceReducer(initialVoiceState, { type: 'ELAPSED', elapsedMs: 3250 })).toBe(initialVoiceState);
  });

  it('ignores interim speech results in Whisper mode', () => {
    const whisper = recording('whisper');

    expect(voiceReducer(whisper, { type: 'VOICE_SPEECH_RESULT', transcript: 'stray', isFinal: false })).toBe(whisper);
  });
});

describe('voiceReducer: cancelling and errors', () => {
  it('cancels from any phase back to idle without an error', () => {
    const phases: VoiceState[] = [
      run([{ type: 'START_REQUESTED', mode: 'whisper' }]),
      recording(),
      run([{ type: 'STOP_REQUESTED' }], recording()),
    ];
    for (const state of phases) {
      const cancelled = voiceReducer(state, { type: 'CANCEL_REQUESTED' });
      expect(cancelled, state.phase).toEqual(initialVoiceState);
    }
  });

  it('keeps the chosen mode after cancelling', () => {
    expect(voiceReducer(recording('speech'), { type: 'CANCEL_REQUESTED' }).mode).toBe('speech');
  });

  it('does not bring a cancelled recording back when late events arrive', () => {
    const cancelled = run([{ type: 'STOP_REQUESTED' }, { type: 'CANCEL_REQUESTED' }], recording());

    const late: VoiceEvent[] = [
      { type: 'VOICE_TRANSCRIBING' },
      { type: 'VOICE_RESULT', transcript: 'too late', isFinal: true },
      { type: 'VOICE_STARTED', mode: 'whisper' },
      { type: 'LEVEL', level: 0.5, elapsedMs: 900, speaking: true },
      micDenied,
      { type: 'VOICE_END' },
    ];
    for (const event of late) expect(voiceReducer(cancelled, event), event.type).toBe(cancelled);
    expect(resultIsWanted(cancelled)).toBe(false);
  });

  it('shows an error and returns to idle when the run fails', () => {
    const failed = voiceReducer(recording(), micDenied);

    expect(failed).toMatchObject({ phase: 'idle', error: { code: 'MIC_DENIED', error: 'No microphone for you.' } });
  });

  it('keeps the error on screen when VOICE_END follows it', () => {
    const transcribing = run([{ type: 'STOP_REQUESTED' }], recording());
    const failed = run([{ type: 'VOICE_ERROR', code: 'SERVER_DOWN', error: 'Down.' }, { type: 'VOICE_END' }], transcribing);

    expect(failed.error).toEqual({ code: 'SERVER_DOWN', error: 'Down.' });
  });

  it('reports an error raised while starting (e.g. microphone denied)', () => {
    const starting = run([{ type: 'START_REQUESTED', mode: 'whisper' }]);

    expect(voiceReducer(starting, micDenied)).toMatchObject({ phase: 'idle', error: { code: 'MIC_DENIED' } });
  });
});

describe('voiceReducer: events in the wrong phase are ignored', () => {
  it('does not start a second recording over a running one', () => {
    const busy = recording('whisper');

    expect(voiceReducer(busy, { type: 'START_REQUESTED', mode: 'speech' })).toBe(busy);
  });

  it('ignores stop, levels and results while idle', () => {
    const events: VoiceEvent[] = [
      { type: 'STOP_REQUESTED' },
      { type: 'CANCEL_REQUESTED' },
      { type: 'LEVEL', level: 0.5, elapsedMs: 100, speaking: true },
      { type: 'VOICE_SPEECH_RESULT', transcript: 'x', isFinal: false },
    ];
    for (const event of events) expect(voiceReducer(initialVoiceState, event), event.type).toBe(initialVoiceState);
  });

  it('ignores levels and a repeated stop while transcribing', () => {
    const transcribing = run([{ type: 'STOP_REQUESTED' }], recording());

    expect(voiceReducer(transcribing, { type: 'LEVEL', level: 0.5, elapsedMs: 100, speaking: true })).toBe(transcribing);
    expect(voiceReducer(transcribing, { type: 'STOP_REQUESTED' })).toBe(transcribing);
  });

  it('does not treat stop as finished before the microphone is even on', () => {
    const starting = run([{ type: 'START_REQUESTED', mode: 'whisper' }]);

    expect(voiceReducer(starting, { type: 'STOP_REQUESTED' })).toBe(starting);
  });
});

describe('speechStopReason', () => {
  const settings = { maxSeconds: 30 };
  const at = (elapsedMs: number, mode: VoiceMode = 'speech'): VoiceState => ({ ...recording(mode), elapsedMs });

  it('ends a run that has listened as long as a recording may', () => {
    expect(speechStopReason(at(29_999), settings, true)).toBeUndefined();
    expect(speechStopReason(at(30_000), settings, true)).toBe('max');
  });

  it('gives up on a recognizer that never began to listen, and only then', () => {
    expect(speechStopReason(at(SPEECH_LISTEN_DEADLINE_MS - 1), settings, false)).toBeUndefined();
    expect(speechStopReason(at(SPEECH_LISTEN_DEADLINE_MS), settings, false)).toBe('stalled');
    expect(speechStopReason(at(SPEECH_LISTEN_DEADLINE_MS), settings, true)).toBeUndefined();
  });

  it('leaves Whisper recordings and idle states alone', () => {
    expect(speechStopReason(at(60_000, 'whisper'), settings, false)).toBeUndefined();
    expect(speechStopReason({ ...initialVoiceState, mode: 'speech', elapsedMs: 60_000 }, settings, false)).toBeUndefined();
  });
});

describe('autoStopReason', () => {
  const settings = { maxSeconds: 60, silenceSeconds: 2 };
  const at = (elapsedMs: number, heardSpeech: boolean): VoiceState => ({ ...recording(), elapsedMs, heardSpeech });

  it('stops at the time limit, not a moment before', () => {
    expect(autoStopReason(at(59_999, false), settings, 0)).toBeUndefined();
    expect(autoStopReason(at(60_000, false), settings, 0)).toBe('max');
  });

  it('stops after the configured silence once the user has spoken', () => {
    expect(autoStopReason(at(5000, true), settings, 1999)).toBeUndefined();
    expect(autoStopReason(at(5000, true), settings, 2000)).toBe('silence');
  });

  it('waits for the user to begin speaking before silence counts', () => {
    expect(autoStopReason(at(5000, false), settings, 5000)).toBeUndefined();
  });

  it('never stops for silence when it is turned off', () => {
    expect(autoStopReason(at(5000, true), { maxSeconds: 60, silenceSeconds: 0 }, 30_000)).toBeUndefined();
  });

  it('names the time limit when both apply', () => {
    expect(autoStopReason(at(60_000, true), settings, 10_000)).toBe('max');
  });

  it('has nothing to stop when not recording', () => {
    const transcribing: VoiceState = { ...run([{ type: 'STOP_REQUESTED' }], recording()), elapsedMs: 90_000, heardSpeech: true };

    expect(autoStopReason(transcribing, settings, 10_000)).toBeUndefined();
    expect(autoStopReason(initialVoiceState, settings, 10_000)).toBeUndefined();
  });
});

describe('micErrorFor', () => {
  const denied = "Jawad isn't allowed to use the microphone. Click “Allow microphone” to grant it (once).";
  const noMic = "No microphone found. Plug one in or check your system's sound settings.";
  const busy = 'The microphone is in use by another app, or the system blocked it.';

  it.each([
    ['NotAllowedError', 'MIC_DENIED', denied],
    ['SecurityError', 'MIC_DENIED', denied],
    ['PermissionDeniedError', 'MIC_DENIED', denied],
    ['NotFoundError', 'NO_MIC', noMic],
    ['OverconstrainedError', 'NO_MIC', noMic],
    ['DevicesNotFoundError', 'NO_MIC', noMic],
    ['NotReadableError', 'MIC_BUSY', busy],
    ['TrackStartError', 'MIC_BUSY', busy],
    ['AbortError', 'MIC_BUSY', busy],
  ])('explains the %s DOMException as %s', (name, code, error) => {
    expect(micErrorFor(new DOMException('Permission denied', name))).toEqual({ code, error });
  });

  it.each([
    ['not-allowed', 'MIC_DENIED', denied],
    ['service-not-allowed', 'MIC_DENIED', denied],
    ['audio-capture', 'NO_MIC', noMic],
    ['network', 'SERVER_DOWN', "The browser's speech service can't be reached. Try Whisper in Settings → Voice."],
    ['no-speech', 'EMPTY_AUDIO', "I didn't catch any words. Try again, a little closer to the microphone."],
  ])('explains the speech recognition error %s as %s', (speechError, code, error) => {
    expect(micErrorFor({ error: speechError, message: '' })).toEqual({ code, error });
  });

  it('passes on the original message for anything else', () => {
    expect(micErrorFor(new TypeError('MediaRecorder is not a constructor'))).toEqual({
      code: 'TRANSCRIPTION_FAILED',
      error: 'MediaRecorder is not a constructor',
    });
    expect(micErrorFor({ error: 'language-not-supported', message: 'Language not supported: xx' })).toEqual({
      code: 'TRANSCRIPTION_FAILED',
      error: 'Language not supported: xx',
    });
  });

  it('still says something when the failure has no message', () => {
    const result = micErrorFor({ error: 'aborted', message: '' });

    expect(result.code).toBe('TRANSCRIPTION_FAILED');
    expect(result.error).not.toBe('');
  });
});

describe('appendTranscript', () => {
  it('puts the transcript after what was typed, one space between', () => {
    expect(appendTranscript('Summarise this page', 'in three bullet points')).toBe('Summarise this page in three bullet points');
    expect(appendTranscript('Trailing space  ', '  and padded words ')).toBe('Trailing space and padded words');
  });

  it('fills an empty box with just the transcript, and leaves the draft alone for an empty one', () => {
    expect(appendTranscript('', ' Hello ')).toBe('Hello');
    expect(appendTranscript('   ', 'Hello')).toBe('Hello');
    expect(appendTranscript('Draft', '  ')).toBe('Draft');
  });
});

describe('levelOf', () => {
  it('reads silence as zero and not speech', () => {
    expect(levelOf(new Float32Array(1024))).toEqual({ level: 0, speaking: false });
  });

  it('reads a loud voice (sine of amplitude 0.5) as speech with a full meter', () => {
    const sine = Float32Array.from({ length: 1024 }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / 48_000));

    const { level, speaking } = levelOf(sine);

    expect(speaking).toBe(true);
    expect(level).toBe(1);
  });

  it('reads faint room noise as not speech, but still moves the meter a little', () => {
    const hiss = Float32Array.from({ length: 1024 }, (_, i) => (i % 2 === 0 ? 0.01 : -0.01));

    const { level, speaking } = levelOf(hiss);

    expect(speaking).toBe(false);
    expect(level).toBeCloseTo(0.04, 5);
  });

  it('handles an empty buffer', () => {
    expect(levelOf(new Float32Array(0))).toEqual({ level: 0, speaking: false });
  });
});
