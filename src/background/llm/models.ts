import { errorFromResponse, networkError } from './errors';
import { endpoint, providerHeaders } from './headers';
import type { LlmConfig } from './types';

/** Anthropic pages its list (20 by default); a server that never stops paging is cut off here. */
const MAX_PAGES = 20;

interface ModelPage {
  data?: Array<{ id?: unknown }>;
  has_more?: boolean;
  last_id?: string | null;
}

async function getJson(config: LlmConfig, url: string): Promise<{ status: number; json?: unknown; text: string }> {
  let response: Response;
  try {
    response = await fetch(url, { headers: providerHeaders(config) });
  } catch {
    throw networkError(config);
  }
  const text = await response.text().catch(() => '');
  try {
    return { status: response.status, json: JSON.parse(text) as unknown, text };
  } catch {
    return { status: response.status, text };
  }
}

/**
 * Lists the models the server offers (`GET /models` on OpenAI-compatible servers and Anthropic),
 * following Anthropic's pages. Returns undefined when the server has no such list, which many
 * local servers do not.
 */
export async function listModels(config: LlmConfig): Promise<string[] | undefined> {
  const ids: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = config.provider === 'anthropic' ? `?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ''}` : '';
    const { status, json, text } = await getJson(config, endpoint(config, '/models') + query);
    if (status === 404 || status === 405) return ids.length > 0 ? ids : undefined;
    if (status < 200 || status >= 300) throw errorFromResponse(config, status, text);
    const body = (json ?? {}) as ModelPage;
    for (const model of body.data ?? []) if (typeof model.id === 'string') ids.push(model.id);
    after = body.has_more && body.last_id ? body.last_id : undefined;
    if (!after) break;
  }
  return ids.length > 0 ? ids : undefined;
}

export type ModelMatch =
  | { how: 'exact' | 'tag' | 'file'; id: string }
  | { how: 'alias'; id: string }
  | { how: 'unlisted' };

/** `llama3.1` ≡ `llama3.1:latest` (Ollama); a llama.cpp path or file name matches its stem. */
function listedAs(model: string, listed: string[]): ModelMatch | undefined {
  if (listed.includes(model)) return { how: 'exact', id: model };
  const bare = (name: string) => name.replace(/:latest$/i, '').toLowerCase();
  const tagged = listed.find((id) => bare(id) === bare(model));
  if (tagged) return { how: 'tag', id: tagged };
  const stem = (name: string) => name.split(/[\\/]/).pop()!.replace(/\.gguf$/i, '').toLowerCase();
  const file = listed.find((id) => stem(id) === stem(model));
  return file ? { how: 'file', id: file } : undefined;
}

/**
 * Finds the configured model among the listed ones, tolerating tags and file names; an unlisted
 * name is asked about with `GET /models/{id}`, which resolves aliases (Anthropic's `…-latest`).
 */
export async function findModel(config: LlmConfig, listed: string[]): Promise<ModelMatch> {
  const found = listedAs(config.model, listed);
  if (found) return found;
  const single = await getJson(config, endpoint(config, `/models/${encodeURIComponent(config.model)}`)).catch(() => undefined);
  const id = (single?.json as { id?: unknown } | undefined)?.id;
  if (single && single.status >= 200 && single.status < 300 && typeof id === 'string') return { how: 'alias', id };
  return { how: 'unlisted' };
}
