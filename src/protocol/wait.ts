import * as z from 'zod/mini';

/** How long a snapshot may wait for text to show or go, in seconds: this long unless told, and at most MAX_WAIT_SECONDS. */
export const DEFAULT_WAIT_SECONDS = 10;
export const MAX_WAIT_SECONDS = 20;
const WaitText = z.optional(z.string().check(z.minLength(1), z.maxLength(500)));
/** A snapshot's wait, the same for the agent's tool and a bridge client's command. */
export const SnapshotWaitParams = {
  waitForText: WaitText,
  waitForTextGone: WaitText,
  waitSeconds: z.optional(z.number().check(z.minimum(0), z.maximum(MAX_WAIT_SECONDS))),
};

/** How a snapshot's wait went: what it was for (text to show, text to go, or neither: time), whether that came, after how long. */
export const Waited = z.object({ text: z.optional(z.string()), gone: z.optional(z.string()), met: z.boolean(), ms: z.int() });
export type Waited = z.infer<typeof Waited>;
