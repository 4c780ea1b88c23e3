import browser from 'webextension-polyfill';
import { voiceInput } from '../store';
import { voice } from '../voice/controller';

const GRANT_PAGE = 'src/grant-mic/index.html';

function seconds(ms: number): string {
  const total = Math.floor(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** Recording status, level meter, stop/cancel, and voice errors with what to do about them. */
export function VoiceBar() {
  const { phase, level, elapsedMs, interim, error, mode } = voice.value;
  if (phase === 'idle' && !error) return null;
  return (
    <div class="voice-bar" role="status" data-phase={phase} data-mode={mode}>
      {phase === 'starting' && <span>Starting the microphone…</span>}
      {phase === 'recording' && (
        <>
          <span class="recording-dot" aria-hidden="true" />
          <span>{mode === 'speech' ? 'Listening' : 'Recording'} {seconds(elapsedMs)}</span>
          {mode === 'whisper' && (
            <div class="level" role="meter" aria-label="Microphone level" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(level * 100)}>
              <div class="level-fill" style={{ width: `${Math.round(level * 100)}%` }} />
            </div>
          )}
          {interim && <span class="interim">{interim}</span>}
          <button type="button" class="secondary" onClick={() => void voiceInput.stop()}>
            Stop
          </button>
        </>
      )}
      {phase === 'transcribing' && <span>Transcribing…</span>}
      {phase !== 'idle' && (
        <button type="button" class="link-button" onClick={() => voiceInput.cancel()}>
          Cancel
        </button>
      )}
      {error && (
        <p class="voice-error" role="alert" data-code={error.code}>
          {error.error}
          {error.code === 'MIC_DENIED' && (
            <button type="button" class="link-button" onClick={() => void browser.tabs.create({ url: browser.runtime.getURL(GRANT_PAGE) })}>
              Allow microphone
            </button>
          )}
        </p>
      )}
    </div>
  );
}
