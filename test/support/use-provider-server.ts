import { afterAll, afterEach, beforeAll } from 'vitest';
import type { LlmConfig } from '../../src/background/llm/types';
import { startProviderServer, type ProviderServer } from './provider-server';

/**
 * One provider test server for a test file: started before, reset after each test, closed after.
 * `config` builds settings that point at it (OpenAI wire format unless overridden).
 */
export function useProviderServer(): { readonly server: ProviderServer; config: (extra?: Partial<LlmConfig>) => LlmConfig } {
  let server: ProviderServer | undefined;
  beforeAll(async () => {
    server = await startProviderServer();
  });
  afterEach(() => server?.reset());
  afterAll(() => server?.close());
  return {
    get server() {
      if (!server) throw new Error('The provider server starts in beforeAll');
      return server;
    },
    config: (extra = {}) => ({
      provider: 'openai',
      baseUrl: `${server!.url}/v1`,
      model: 'test-model',
      apiKey: 'sk-test',
      timeoutSeconds: 2,
      ...extra,
    }),
  };
}
