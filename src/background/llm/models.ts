import { errorFromResponse, networkError } from './errors';
import { endpoint, providerHeaders } from './headers';
import type { LlmConfig } from './types';

/**
 * Lists the models the server offers (`GET /models` on OpenAI-compatible servers and Anthropic).
 * Returns undefined when the server has no such list, which many local servers do not.
 */
export async function listModels(config: LlmConfig, signal?: AbortSignal): Promise<string[] | undefined> {
  let response: Response;
  try {
    response = await fetch(endpoint(config, '/models'), { headers: providerHeaders(config), signal });
  } catch {
    if (signal?.aborted) return undefined;
    throw networkError(config);
  }
  if (response.status === 404 || response.status === 405) return undefined;
  if (!response.ok) throw errorFromResponse(config, response.status, await response.text().catch(() => ''));
  const json = (await response.json().catch(() => undefined)) as { data?: Array<{ id?: unknown }> } | undefined;
  const ids = json?.data?.map((model) => model.id).filter((id): id is string => typeof id === 'string');
  return ids && ids.length > 0 ? ids : undefined;
}
