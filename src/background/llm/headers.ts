import type { LlmConfig } from './types';

/** The request headers each provider expects; the key goes only to the configured base URL. */
export function providerHeaders(config: LlmConfig): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const key = config.apiKey?.trim();
  if (config.provider === 'anthropic') {
    if (key) headers['x-api-key'] = key;
    headers['anthropic-version'] = '2023-06-01';
    // Anthropic refuses browser-origin calls without this explicit opt-in.
    headers['anthropic-dangerous-direct-browser-access'] = 'true';
    return headers;
  }
  if (key) headers.Authorization = `Bearer ${key}`;
  if (config.provider === 'openrouter') {
    // OpenRouter's app attribution headers (optional, documented at openrouter.ai/docs).
    headers['HTTP-Referer'] = 'https://github.com/jawad-assistant/jawad';
    headers['X-Title'] = 'Jawad';
  }
  return headers;
}

export function endpoint(config: LlmConfig, path: string): string {
  return `${config.baseUrl.replace(/\/+$/, '')}${path}`;
}
