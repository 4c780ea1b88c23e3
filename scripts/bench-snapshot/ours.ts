/**
 * Jawad's side: the `snapshot` tool on one page of the browser that has the built extension, plus
 * the read_page tool once (for the markdown size) and the page's own ground truth.
 */
import type { JawadBrowser } from '../../test/e2e/support/extension-browser';
import { median } from '../bench/stats';
import type { Sampler } from './interleave';
import { runTool } from './jawad-tools';
import { readMarks, type Expectation } from './truth';

/** The snapshot tool's answer (src/protocol/messages.ts, PageSnapshot). */
export interface PageSnapshot {
  url: string;
  title: string;
  text: string;
  refs: Array<{ ref: string; role: string; name: string; tag: string; id?: string; testid?: string }>;
  elementCount: number;
  partial: boolean;
}

export interface JawadMeasurement {
  /** Registry durations of the timed snapshots, ms. */
  samples: number[];
  /** Their median: the figure compared with Playwright. */
  ms: number;
  /** Median post → reply on the sidebar's Port (registry time plus the Port hops), ms. */
  portMs: number;
  /** The last timed snapshot (all runs read the same page). */
  snapshot: PageSnapshot;
  markdownChars: number;
  /** read_page's product facts (null on pages that sell nothing). */
  product: unknown;
  markdownTruncated: boolean;
  marks: Expectation[];
}

export interface JawadSession extends Sampler {
  /** read_page and the ground truth, then the figures; closes the tab. */
  finish(): Promise<JawadMeasurement>;
  close(): Promise<void>;
}

/** read_page's largest allowed cut (tools/read-page.ts), so the figure is the page's markdown, not the default cap. */
const READ_PAGE_MAX_CHARS = 200_000;

/** Opens the page in a tab of the extension browser and takes one untimed snapshot. */
export async function openJawadSession(jawad: JawadBrowser, url: string, log: (line: string) => void): Promise<JawadSession> {
  const page = await jawad.openTab(url);
  const close = () => page.close().catch(() => undefined);
  const shown = page.url(); // after redirects and normalisation: what the tab's URL will match
  const samples: number[] = [];
  const portTimes: number[] = [];
  let snapshot: PageSnapshot | undefined;
  try {
    // The first snapshot injects the page agent and warms the code paths: not timed.
    await runTool<PageSnapshot>(jawad.host, shown, 'snapshot');
  } catch (error) {
    await close();
    throw error;
  }
  return {
    label: 'Jawad snapshot',
    async sample() {
      const reply = await runTool<PageSnapshot>(jawad.host, shown, 'snapshot');
      samples.push(reply.duration);
      portTimes.push(reply.portMs);
      snapshot = reply.data;
    },
    async finish() {
      if (!snapshot) throw new Error('no snapshot was taken');
      log(`  Jawad snapshot: ${samples.join(', ')} ms; ${snapshot.refs.length} refs, ${snapshot.text.length} chars${snapshot.partial ? ', PARTIAL' : ''}`);
      const read = await runTool<{ markdown: string; truncated: boolean; product?: unknown }>(jawad.host, shown, 'read_page', { maxChars: READ_PAGE_MAX_CHARS });
      const marks = await readMarks(page);
      await close();
      return { samples, ms: median(samples), portMs: median(portTimes), snapshot, markdownChars: read.data.markdown.length, markdownTruncated: read.data.truncated, product: read.data.product ?? null, marks };
    },
    close,
  };
}
