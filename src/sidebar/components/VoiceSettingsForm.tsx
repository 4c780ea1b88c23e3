import { useState } from 'preact/hooks';
import { VoiceSettings, type PublicVoiceSettings, type VoiceMode } from '../../protocol';
import { saveVoiceSettings, state } from '../store';
import { speechRecognitionAvailable } from '../voice/speech-support';
import { useDerivedState } from './use-derived-state';
import { saveNote, useSave } from './use-save';

interface Form {
  mode: VoiceMode;
  whisperBaseUrl: string;
  whisperModel: string;
  /** '' keeps the saved key. */
  whisperApiKey: string;
  language: string;
  autoSend: boolean;
  maxSeconds: string;
  silenceSeconds: string;
}

function formFrom(saved: PublicVoiceSettings | undefined): Form {
  const base = saved ?? { ...VoiceSettings.parse({}), hasWhisperKey: false };
  return {
    mode: base.mode,
    whisperBaseUrl: base.whisperBaseUrl ?? '',
    whisperModel: base.whisperModel,
    whisperApiKey: '',
    language: base.language ?? '',
    autoSend: base.autoSend,
    maxSeconds: String(base.maxSeconds),
    silenceSeconds: String(base.silenceSeconds),
  };
}

function toSettings(form: Form) {
  return VoiceSettings.safeParse({
    mode: form.mode,
    ...(form.whisperBaseUrl.trim() ? { whisperBaseUrl: form.whisperBaseUrl.trim() } : {}),
    whisperModel: form.whisperModel,
    ...(form.whisperApiKey.trim() ? { whisperApiKey: form.whisperApiKey.trim() } : {}),
    ...(form.language.trim() ? { language: form.language.trim() } : {}),
    autoSend: form.autoSend,
    maxSeconds: Number(form.maxSeconds),
    silenceSeconds: Number(form.silenceSeconds),
  });
}

export function VoiceSettingsForm() {
  const saved = state.value.voiceSettings;
  const [form, setForm] = useDerivedState(saved, formFrom);
  const [errors, setErrors] = useState<string[]>([]);
  const [save, setSave] = useSave();
  const update = (changes: Partial<Form>) => {
    setSave(undefined);
    setForm({ ...form, ...changes });
  };
  const canSpeak = speechRecognitionAvailable();
  const text = (name: keyof Form) => (event: Event) => update({ [name]: (event.target as HTMLInputElement).value });

  return (
    <form
      class="voice-settings"
      aria-label="Voice settings"
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = toSettings(form);
        setErrors(parsed.success ? [] : parsed.error.issues.map((issue) => issue.message));
        if (parsed.success) {
          setSave(saveVoiceSettings(parsed.data));
        }
      }}
    >
      <h2>Voice input</h2>
      <fieldset>
        <legend class="visually-hidden">Speech to text</legend>
        <label class="inline">
          <input type="radio" name="voiceMode" value="whisper" checked={form.mode === 'whisper'} onChange={() => update({ mode: 'whisper' })} />
          Whisper (any OpenAI-compatible server)
        </label>
        <label class="inline">
          <input type="radio" name="voiceMode" value="speech" disabled={!canSpeak} checked={form.mode === 'speech'} onChange={() => update({ mode: 'speech' })} />
          Browser speech recognition
        </label>
      </fieldset>
      {!canSpeak && <p class="hint">This browser has no speech recognition API (Firefox has none), so voice input uses Whisper.</p>}
      {form.mode === 'whisper' && (
        <>
          <label>
            Transcription server (blank: the chat provider’s)
            <input name="whisperBaseUrl" type="url" placeholder="https://api.openai.com/v1" value={form.whisperBaseUrl} onInput={text('whisperBaseUrl')} />
          </label>
          <label>
            Transcription model
            <input name="whisperModel" value={form.whisperModel} onInput={text('whisperModel')} />
          </label>
          <label>
            Transcription API key (blank: {saved?.hasWhisperKey ? 'keep the saved one' : 'the chat provider’s, same server only'})
            <input name="whisperApiKey" type="password" autocomplete="off" value={form.whisperApiKey} onInput={text('whisperApiKey')} />
          </label>
          <label>
            Stop after this many seconds of silence (0: never)
            <input name="silenceSeconds" type="number" min={0} max={30} step={0.5} value={form.silenceSeconds} onInput={text('silenceSeconds')} />
          </label>
        </>
      )}
      <label>
        Language (blank: detect)
        <input name="language" placeholder="en" value={form.language} onInput={text('language')} />
      </label>
      <label>
        Longest recording (seconds)
        <input name="maxSeconds" type="number" min={5} max={300} value={form.maxSeconds} onInput={text('maxSeconds')} />
      </label>
      <label class="inline">
        <input type="checkbox" name="autoSend" checked={form.autoSend} onChange={(event) => update({ autoSend: (event.target as HTMLInputElement).checked })} />
        Send the message as soon as it is transcribed
      </label>
      {errors.length > 0 && (
        <ul class="form-errors" role="alert">
          {errors.map((error) => <li key={error}>{error}</li>)}
        </ul>
      )}
      <div class="settings-actions">
        <button type="submit" class="primary">
          Save voice settings
        </button>
      </div>
      <p class="voice-note" role="status" data-save={save?.status}>{saveNote(save, 'Voice settings saved.')}</p>
      <p class="hint">Audio is recorded only while the mic button is on, sent only to the transcription server, and never stored.</p>
    </form>
  );
}
