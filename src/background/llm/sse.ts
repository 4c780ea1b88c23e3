import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { streamCutError } from './errors';
import type { ProviderCall } from './http';

/**
 * Yields the server-sent events of a streaming response. Every received byte re-arms the idle
 * timeout; a dropped connection becomes a "stream cut" LlmError, a stop becomes "cancelled".
 */
export async function* sseEvents(call: ProviderCall, response: Response): AsyncGenerator<EventSourceMessage> {
  if (!response.body) throw streamCutError(call.config);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<string>;
      try {
        chunk = await reader.read();
      } catch {
        throw call.abortError() ?? streamCutError(call.config);
      }
      if (chunk.done) break;
      call.armTimeout('timeout-idle');
      parser.feed(chunk.value);
      while (pending.length > 0) yield pending.shift()!;
    }
    const aborted = call.abortError();
    if (aborted) throw aborted;
  } finally {
    call.disarmTimeout();
    reader.cancel().catch(() => undefined);
  }
}
