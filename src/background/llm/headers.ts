import type { LlmConfig } from './types';

/** Azure OpenAI's GA API version, used when a deployment URL does not name one. */
export const AZURE_API_VERSION = '2024-10-21';

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
  if (config.provider === 'azure') {
    // Azure OpenAI's key header; a Bearer token there means an Entra ID token, not a key.
    if (key) headers['api-key'] = key;
    return headers;
  }
  if (key) headers.Authorization = `Bearer ${key}`;
  if (config.provider === 'openrouter') {
    // OpenRouter's app attribution headers (openrouter.ai/docs/app-attribution).
    headers['HTTP-Referer'] = 'https://github.com/jawad-assistant/jawad';
    headers['X-Title'] = 'Jawad';
  }
  return headers;
}

/**
 * The URL of an API path under the base URL. A query in the base URL (Azure's `?api-version=`)
 * stays at the end; an Azure deployment URL without one gets the GA version.
 */
export function endpoint(config: LlmConfig, path: string): string {
  const url = new URL(config.baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  if (config.provider === 'azure' && /\/deployments\//.test(url.pathname) && !url.searchParams.has('api-version')) {
    url.searchParams.set('api-version', AZURE_API_VERSION);
  }
  return url.toString();
}
