/**
 * Content scripts use the browser's own `browser` (Firefox, Chrome 148+) or `chrome` namespace
 * directly instead of webextension-polyfill, to stay small: they run inside web pages.
 */
export interface ContentRuntime {
  id: string;
  sendMessage(message: unknown): Promise<unknown>;
  onMessage: {
    addListener(
      listener: (message: unknown, sender: { id?: string }, sendResponse: (response: unknown) => void) => boolean | undefined,
    ): void;
  };
}

export function extensionApi(): { runtime: ContentRuntime } {
  const scope = globalThis as unknown as { browser?: { runtime: ContentRuntime }; chrome?: { runtime: ContentRuntime } };
  const api = scope.browser?.runtime ? scope.browser : scope.chrome;
  if (!api) throw new Error('No extension API in this context');
  return api;
}
