import * as z from 'zod/mini';

export const PROVIDER_IDS = [
  'openai',
  'openrouter',
  'ollama',
  'lmstudio',
  'llamacpp',
  'gemini',
  'anthropic',
  'groq',
  'mistral',
  'deepseek',
  'together',
  'xai',
  'azure',
  'custom',
] as const;
export const ProviderId = z.enum(PROVIDER_IDS);
export type ProviderId = z.infer<typeof ProviderId>;

export type WireFormat = 'openai' | 'anthropic';

export interface ProviderPreset {
  id: ProviderId;
  label: string;
  baseUrl: string;
  defaultModel: string;
  wire: WireFormat;
  needsKey: boolean;
  /** Shown under the fields: how to get going with this provider. */
  hint: string;
}

export const PROVIDER_PRESETS: Record<ProviderId, ProviderPreset> = {
  openai: {
    id: 'openai', label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', defaultModel: 'gpt-4o-mini',
    wire: 'openai', needsKey: true, hint: 'Create a key at platform.openai.com → API keys.',
  },
  openrouter: {
    id: 'openrouter', label: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1',
    defaultModel: 'openai/gpt-4o-mini', wire: 'openai', needsKey: true,
    hint: 'One key for hundreds of models: openrouter.ai/keys.',
  },
  ollama: {
    id: 'ollama', label: 'Ollama (local)', baseUrl: 'http://localhost:11434/v1', defaultModel: 'llama3.1',
    wire: 'openai', needsKey: false,
    hint: 'Runs on your machine. No OLLAMA_ORIGINS setup needed: Jawad handles the Origin header.',
  },
  lmstudio: {
    id: 'lmstudio', label: 'LM Studio (local)', baseUrl: 'http://localhost:1234/v1', defaultModel: 'local-model',
    wire: 'openai', needsKey: false, hint: 'Start the server in LM Studio’s Developer tab.',
  },
  llamacpp: {
    id: 'llamacpp', label: 'llama.cpp server (local)', baseUrl: 'http://localhost:8080/v1', defaultModel: 'default',
    wire: 'openai', needsKey: false, hint: 'Run llama-server; add --jinja for tool calls.',
  },
  gemini: {
    id: 'gemini', label: 'Google Gemini', baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
    defaultModel: 'gemini-2.0-flash', wire: 'openai', needsKey: true,
    hint: 'Uses Gemini’s OpenAI-compatible endpoint. Key from aistudio.google.com.',
  },
  anthropic: {
    id: 'anthropic', label: 'Anthropic', baseUrl: 'https://api.anthropic.com/v1',
    defaultModel: 'claude-3-5-haiku-latest', wire: 'anthropic', needsKey: true,
    hint: 'Key from console.anthropic.com.',
  },
  groq: {
    id: 'groq', label: 'Groq', baseUrl: 'https://api.groq.com/openai/v1', defaultModel: 'llama-3.3-70b-versatile',
    wire: 'openai', needsKey: true, hint: 'Key from console.groq.com/keys. Reasoning models send their thinking apart, shown as Thinking.',
  },
  mistral: {
    id: 'mistral', label: 'Mistral', baseUrl: 'https://api.mistral.ai/v1', defaultModel: 'mistral-small-latest',
    wire: 'openai', needsKey: true, hint: 'Key from console.mistral.ai. Its API rejects fields it does not know; Jawad drops them and remembers.',
  },
  deepseek: {
    id: 'deepseek', label: 'DeepSeek', baseUrl: 'https://api.deepseek.com/v1', defaultModel: 'deepseek-chat',
    wire: 'openai', needsKey: true, hint: 'Key from platform.deepseek.com. deepseek-reasoner shows its thinking apart.',
  },
  together: {
    id: 'together', label: 'Together AI', baseUrl: 'https://api.together.xyz/v1', defaultModel: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
    wire: 'openai', needsKey: true, hint: 'Key from api.together.ai/settings/api-keys.',
  },
  xai: {
    id: 'xai', label: 'xAI (Grok)', baseUrl: 'https://api.x.ai/v1', defaultModel: 'grok-3-mini',
    wire: 'openai', needsKey: true, hint: 'Key from console.x.ai.',
  },
  azure: {
    // No default: every Azure resource and deployment has its own URL.
    id: 'azure', label: 'Azure OpenAI', baseUrl: '', defaultModel: '', wire: 'openai', needsKey: true,
    hint: 'Paste your deployment URL, https://RESOURCE.openai.azure.com/openai/deployments/NAME (?api-version= optional), and the deployment name as the model. The key goes in the api-key header.',
  },
  custom: {
    id: 'custom', label: 'Custom (OpenAI-compatible)', baseUrl: 'http://localhost:8000/v1', defaultModel: '',
    wire: 'openai', needsKey: false, hint: 'Any server that speaks /v1/chat/completions.',
  },
};

const HttpUrl = z.url('Enter a full URL such as http://localhost:11434/v1').check(
  z.trim(),
  z.refine((value) => /^https?:\/\//i.test(value), 'The base URL must start with http:// or https://'),
);

/** Everything the user configures about the model; the API key travels only to the background. */
export const ProviderSettings = z.object({
  provider: ProviderId,
  baseUrl: HttpUrl,
  model: z.string().check(z.trim(), z.minLength(1, 'Choose a model name'), z.maxLength(200)),
  apiKey: z.optional(z.string().check(z.maxLength(500))),
  temperature: z.optional(z.number().check(z.minimum(0), z.maximum(2))),
  maxTokens: z.optional(z.int().check(z.minimum(1), z.maximum(200_000))),
  /** How long to wait for the provider's first byte, and then between bytes. */
  timeoutSeconds: z._default(z.number().check(z.minimum(1, 'The timeout is at least 1 s'), z.maximum(600, 'The timeout is at most 600 s')), 60),
});
export type ProviderSettings = z.infer<typeof ProviderSettings>;

/** What the sidebar may see of saved settings: never the key itself. */
export const PublicSettings = z.extend(z.omit(ProviderSettings, { apiKey: true }), {
  hasApiKey: z.boolean(),
  apiKeyHint: z.optional(z.string()),
});
export type PublicSettings = z.infer<typeof PublicSettings>;

/** SAVE_SETTINGS: an omitted apiKey keeps the stored one, an empty string removes it. */
export const SettingsUpdate = ProviderSettings;
export type SettingsUpdate = z.infer<typeof SettingsUpdate>;

export function defaultSettingsFor(provider: ProviderId): ProviderSettings {
  const preset = PROVIDER_PRESETS[provider];
  return { provider, baseUrl: preset.baseUrl, model: preset.defaultModel, timeoutSeconds: 60 };
}

export function keyHint(apiKey: string | undefined): string | undefined {
  if (!apiKey) return undefined;
  return apiKey.length <= 8 ? '••••' : `••••${apiKey.slice(-4)}`;
}

// ---- Voice ---------------------------------------------------------------------------------

export const VOICE_MODES = ['whisper', 'speech'] as const;
export const VoiceMode = z.enum(VOICE_MODES);
export type VoiceMode = z.infer<typeof VoiceMode>;

/**
 * Voice input. Whisper: any OpenAI-compatible /audio/transcriptions endpoint; blank base URL and
 * key mean "the chat provider's". Speech: the browser's Web Speech API (Chrome only).
 */
export const VoiceSettings = z.object({
  mode: z._default(VoiceMode, 'whisper'),
  whisperBaseUrl: z.optional(HttpUrl),
  whisperModel: z._default(z.string().check(z.trim(), z.minLength(1, 'Choose a transcription model'), z.maxLength(200)), 'whisper-1'),
  whisperApiKey: z.optional(z.string().check(z.maxLength(500))),
  /** BCP-47 language hint, e.g. "en"; blank lets the server detect it. */
  language: z.optional(z.string().check(z.trim(), z.maxLength(20))),
  autoSend: z._default(z.boolean(), false),
  maxSeconds: z._default(z.int().check(z.minimum(5, 'Record at least 5 s'), z.maximum(300, 'Record at most 300 s')), 60),
  /** Stop by itself after this much silence following speech; 0 turns it off. */
  silenceSeconds: z._default(z.number().check(z.minimum(0), z.maximum(30)), 2),
});
export type VoiceSettings = z.infer<typeof VoiceSettings>;

export const PublicVoiceSettings = z.extend(z.omit(VoiceSettings, { whisperApiKey: true }), {
  hasWhisperKey: z.boolean(),
});
export type PublicVoiceSettings = z.infer<typeof PublicVoiceSettings>;

export const DEFAULT_VOICE_SETTINGS: VoiceSettings = VoiceSettings.parse({});
