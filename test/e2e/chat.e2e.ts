/**
 * The core promise, in real browsers: configure a provider in the real sidebar, chat with a
 * streamed answer, summarize a page, and keep the conversation through provider failures.
 */
import { describe, expect, it } from 'vitest';
import type { ProviderServer } from '../support/provider-server';
import { browsersUnderTest } from './support/extension-browser';
import { backToChat, useReadyJawad, markAnswersSeen, messages, openView, sendMessage, waitForAnswer } from './support/flows';
import { runTool } from './support/run-tool';

for (const browserName of browsersUnderTest()) {
  describe(`chat in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);

    it('streams a markdown answer into the sidebar and shows token usage', async () => {
      suite.provider.enqueue({ kind: 'openai-stream', chunks: ['The **Severn** ', 'has a ', 'huge tidal ', 'range.'], usage: { prompt_tokens: 31, completion_tokens: 9 }, delayMs: 60 });
      await suite.jawad.sidebar.eval((win) => {
        const seen: number[] = [];
        (win as unknown as { __lengths: number[] }).__lengths = seen;
        new win.MutationObserver(() => {
          const answers = win.document.querySelectorAll('article.message.assistant .markdown');
          const last = answers[answers.length - 1] as HTMLElement | undefined;
          if (last) seen.push(last.innerText.length);
        }).observe(win.document.body, { subtree: true, childList: true, characterData: true });
      }, null);

      await sendMessage(suite.jawad.sidebar, 'Tell me about the Severn');
      const answer = await waitForAnswer(suite.jawad.sidebar);

      expect(answer.status).toBe('complete');
      expect(answer.text).toBe('The Severn has a huge tidal range.');
      expect(answer.html).toContain('<strong>Severn</strong>');
      const lengths = await suite.jawad.sidebar.eval((win) => (win as unknown as { __lengths: number[] }).__lengths, null);
      expect(new Set(lengths.filter((n) => n > 0 && n < answer.text.length)).size).toBeGreaterThanOrEqual(2);
      expect(await suite.jawad.sidebar.text('.usage')).toContain('31 in · 9 out tokens');

      const [request] = suite.provider.requests.filter((r) => r.path === '/v1/chat/completions');
      const body = request!.json as { stream: boolean; messages: Array<{ role: string; content: string }> };
      expect(body.stream).toBe(true);
      expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'Tell me about the Severn' });
    });

    it('renders hostile markdown inertly: no script, no javascript: link, no auto-loaded image', async () => {
      const tracker = `${suite.fixtures.url}/track.png?leak=secret`;
      suite.provider.enqueue({
        kind: 'openai-stream',
        chunks: [`Click [here](javascript:alert(1)) <script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> ![chart](${tracker}) [safe](https://example.org/)`],
      });
      await sendMessage(suite.jawad.sidebar, 'Show me something');
      const answer = await waitForAnswer(suite.jawad.sidebar);
      const dom = await suite.jawad.sidebar.eval((win) => {
        const answers = win.document.querySelectorAll('article.message.assistant .markdown');
        const last = answers[answers.length - 1]!;
        return {
          scripts: last.querySelectorAll('script').length,
          images: last.querySelectorAll('img').length,
          hrefs: Array.from(last.querySelectorAll('a')).map((a) => a.getAttribute('href')),
          imageButtons: Array.from(last.querySelectorAll('button.blocked-image')).map((b) => (b as HTMLElement).innerText),
          pwned: (win as unknown as { __pwned?: number }).__pwned ?? 0,
        };
      }, null);
      expect(answer.status).toBe('complete');
      expect(dom.scripts).toBe(0);
      expect(dom.pwned).toBe(0);
      expect(dom.hrefs).not.toContain('javascript:alert(1)');
      expect(dom.hrefs).toContain('https://example.org/');
      expect(dom.images).toBe(0);
      expect(dom.imageButtons).toContain('Load image: chart');
      expect(suite.fixtures.hits.some((path) => path.startsWith('/track.png'))).toBe(false);
    });

    it('loads nothing an answer names — media beacons, srcset, backgrounds — until the user clicks an image', async () => {
      const beacon = (kind: string) => `${suite.fixtures.url}/beacon-${kind}?conversation=secret`;
      const markup = [
        `<video poster="${beacon('poster')}" src="${beacon('video')}" autoplay></video>`,
        `<audio src="${beacon('audio')}" autoplay></audio>`,
        `<picture><source srcset="${beacon('source')} 1x"><img src="${beacon('img')}" srcset="${beacon('srcset')} 2x" alt="pic"></picture>`,
        `<table background="${beacon('background')}"><tr><td background="${beacon('td')}">cell</td></tr></table>`,
        `<input type="image" src="${beacon('input')}"><object data="${beacon('object')}"></object><embed src="${beacon('embed')}">`,
        `<svg><image href="${beacon('svg')}"></image></svg><link rel="prefetch" href="${beacon('prefetch')}">`,
        `<div style="background-image:url(${beacon('style')})">styled</div><body background="${beacon('body')}">`,
        `<meta http-equiv="refresh" content="0;url=${beacon('refresh')}"><iframe src="${beacon('iframe')}"></iframe>`,
        `![chart](${suite.fixtures.url}/pixel.png?clicked=1)`,
      ].join('\n\n');
      suite.provider.enqueue({ kind: 'openai-stream', chunks: [markup] });
      await sendMessage(suite.jawad.sidebar, 'Render some media');
      const answer = await waitForAnswer(suite.jawad.sidebar);
      expect(answer.status).toBe('complete');
      // Give anything that would load a chance to: the answer's own image button proves the DOM settled.
      await suite.jawad.sidebar.waitFor((win) => win.document.querySelectorAll('article.message.assistant button.blocked-image').length > 0, null, 'the image button');
      const loaded = await suite.jawad.sidebar.eval((win) => win.performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => name.includes('beacon-') || name.includes('clicked=1')), null);
      expect(loaded).toEqual([]);
      const fetched = () => suite.fixtures.requests.map((request) => request.url).filter((url) => url.startsWith('/beacon-') || url.includes('clicked=1'));
      expect(fetched()).toEqual([]);

      await suite.jawad.sidebar.eval((win) => {
        // This answer's button: an earlier answer in the conversation may show a "chart" too.
        const answers = win.document.querySelectorAll('article.message.assistant');
        const buttons = answers[answers.length - 1]!.querySelectorAll<HTMLButtonElement>('button.blocked-image');
        [...buttons].find((button) => button.innerText.includes('chart'))!.click();
      }, null);
      await suite.jawad.sidebar.waitFor((win) => [...win.document.querySelectorAll('article.message.assistant img')].some((img) => (img as HTMLImageElement).alt === 'chart' && (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0), null, 'the clicked image');
      expect(fetched()).toEqual(['/pixel.png?clicked=1']);
    });

    it('summarizes the active page from its visible main content only', async () => {
      await suite.jawad.openTab(`${suite.fixtures.url}/article.html`);
      suite.provider.enqueue({ kind: 'openai-stream', chunks: ['The article weighs ', 'a Severn barrage against ', 'its ecological cost.'] });
      await markAnswersSeen(suite.jawad.sidebar);
      await suite.jawad.sidebar.click('.composer button', 'Summarize page');
      const answer = await waitForAnswer(suite.jawad.sidebar);
      expect(answer.text).toBe('The article weighs a Severn barrage against its ecological cost.');

      const chip = await suite.jawad.sidebar.text('article.message.user .page-chip');
      expect(chip).toContain('Tidal Power in the Severn Estuary');
      const body = suite.provider.requests.at(-1)!.json as { messages: Array<{ role: string; content: string }> };
      const prompt = body.messages.at(-1)!.content;
      expect(prompt).toContain('second-highest tidal range in the world');
      expect(prompt).toContain('## Why the range matters');
      expect(prompt).toMatch(/By Morwenna Price · 12 March 2026\s+The Severn Estuary has/); // who wrote it and when, as the page shows
      expect(prompt).toMatch(/<<<UNTRUSTED_PAGE_CONTENT [0-9a-f]{16}>>>[\s\S]*<<<END_UNTRUSTED_PAGE_CONTENT [0-9a-f]{16}>>>/);
      expect(prompt).toContain('Summarize this page');
      for (const trap of ['HIDDEN-DISPLAY-NONE', 'HIDDEN-VISIBILITY', 'HIDDEN-OPACITY', 'HIDDEN-ARIA', 'HIDDEN-OFFSCREEN', 'HIDDEN-CLIPPED', 'HIDDEN-TEMPLATE']) {
        expect(prompt, `${trap} must not reach the model`).not.toContain(trap);
      }
    });

    it('quotes the passage the user selected along with the page, only as far as it shows, and names it on the page chip', async () => {
      const page = await suite.jawad.openTab(`${suite.fixtures.url}/article.html`);
      // Selected from the lagoons paragraph to the end of the article, over the page's hidden lines.
      await page.evaluate(() => {
        const paragraphs = Array.from(document.querySelectorAll('article p'));
        const range = document.createRange();
        range.setStartBefore(paragraphs.find((p) => p.textContent!.startsWith('Smaller tidal lagoons'))!);
        range.setEndAfter(paragraphs.at(-1)!);
        getSelection()!.removeAllRanges();
        getSelection()!.addRange(range);
      });
      suite.provider.enqueue({ kind: 'openai-stream', chunks: ['Lagoons disturb less but cost more.'] });
      await suite.jawad.sidebar.click('.composer label.attach input');
      try {
        await sendMessage(suite.jawad.sidebar, 'What does this mean?');
        expect((await waitForAnswer(suite.jawad.sidebar)).text).toBe('Lagoons disturb less but cost more.');
      } finally {
        await suite.jawad.sidebar.click('.composer label.attach input');
      }
      const body = suite.provider.requests.at(-1)!.json as { messages: Array<{ role: string; content: string }> };
      const prompt = body.messages.at(-1)!.content;
      const quoted = [
        'The user has selected this passage on the page:',
        '> Smaller tidal lagoons, walled off from part of the shore, promise less disruption, but cost more per unit of electricity produced.',
        '>',
        '> Whichever design is chosen, the estuary\'s tides will keep rising and falling twice a day, as they have for millennia.',
        '',
      ].join('\n');
      // Right under the page's title and address, inside the untrusted-content markers, and nothing hidden in it.
      expect(prompt).toMatch(/<<<UNTRUSTED_PAGE_CONTENT [0-9a-f]{16}>>>\nTitle: .*\nURL: .*\n\nThe user has selected/);
      expect(prompt).toContain(quoted);
      expect(prompt).not.toContain('HIDDEN-');
      const chips = await suite.jawad.sidebar.eval((win) => Array.from(win.document.querySelectorAll('article.message.user .page-chip'), (chip) => chip.textContent), null);
      expect(chips.at(-1)).toContain(' · “Smaller tidal lagoons, walled off from part of the shore, promise less disrupti…”');
      await page.evaluate(() => getSelection()!.removeAllRanges());
    });

    it('summarizes a page its opener wrote into a new blank tab (a printable receipt), and still says a tab left blank is blank', async () => {
      const shop = await suite.jawad.openTab(`${suite.fixtures.url}/plain.html`);
      await shop.evaluate(() => {
        const receipt = window.open('', '_blank')!;
        receipt.document.write('<title>Receipt 1042</title><h1>Receipt 1042</h1><p>Two tide tables: 18.00 EUR. Paid by card.</p>');
        receipt.document.close();
      });
      suite.provider.enqueue({ kind: 'openai-stream', chunks: ['A receipt for two tide tables.'] });
      await markAnswersSeen(suite.jawad.sidebar);
      await suite.jawad.sidebar.click('.composer button', 'Summarize page');
      expect((await waitForAnswer(suite.jawad.sidebar)).text).toBe('A receipt for two tide tables.');
      const body = suite.provider.requests.at(-1)!.json as { messages: Array<{ role: string; content: string }> };
      expect(body.messages.at(-1)!.content).toMatch(/Title: Receipt 1042\n[\s\S]*Two tide tables: 18\.00 EUR\. Paid by card\./);

      // A new tab the user opened and left blank.
      await suite.jawad.host.evaluate(() => browser.tabs.create({ url: 'about:blank' }));
      const blank = await runTool(suite.jawad, 'read_page');
      expect(blank.error).toMatchObject({ code: 'PAGE_UNREADABLE', message: expect.stringMatching(/^This tab is blank \(about:blank\)/) });
    });

    it('shows suite.provider failures as readable errors and keeps the conversation going', async () => {
      const before = (await messages(suite.jawad.sidebar)).length;
      const cases: Array<{ reply: Parameters<ProviderServer['enqueue']>[0][]; expected: RegExp; question: string }> = [
        { question: 'q-401', reply: [{ kind: 'error', status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } } }], expected: /Invalid API key\. Double-check your custom key in Settings\./ },
        { question: 'q-500', reply: [{ kind: 'error', status: 500 }, { kind: 'error', status: 500 }, { kind: 'error', status: 500 }], expected: /server error \(HTTP 500\)/ },
        { question: 'q-429', reply: [1, 2, 3].map(() => ({ kind: 'error' as const, status: 429, headers: { 'retry-after': '0' } })), expected: /rate-limiting/ },
        { question: 'q-cut', reply: [{ kind: 'openai-stream', chunks: ['Partial ', 'answer ', 'lost'], cutAfter: 2 }], expected: /dropped mid-answer/ },
        { question: 'q-badjson', reply: [{ kind: 'openai-stream', chunks: ['Fine ', 'then ', 'garbage'], badChunkAt: 2 }], expected: /malformed reply/ },
        { question: 'q-stall', reply: [{ kind: 'stall' }], expected: /did not answer within 3 s/ },
      ];
      for (const { question, reply, expected } of cases) {
        suite.provider.enqueue(...reply);
        await sendMessage(suite.jawad.sidebar, question);
        const answer = await waitForAnswer(suite.jawad.sidebar);
        expect(answer.status, question).toBe('error');
        expect(answer.error, question).toMatch(expected);
      }
      const cut = (await messages(suite.jawad.sidebar)).filter((m) => m.role === 'assistant').at(-3)!;
      expect(cut.text).toBe('Partial answer');

      suite.provider.enqueue({ kind: 'openai-stream', chunks: ['Back to normal.'] });
      await sendMessage(suite.jawad.sidebar, 'still there?');
      expect((await waitForAnswer(suite.jawad.sidebar)).text).toBe('Back to normal.');
      const all = await messages(suite.jawad.sidebar);
      expect(all.length).toBe(before + 2 * (cases.length + 1));
      expect(all.filter((m) => m.role === 'user').map((m) => m.text)).toEqual(expect.arrayContaining(['q-401', 'q-stall', 'still there?']));
    });

    it('stops a streaming answer and keeps what arrived, then retries it', async () => {
      suite.provider.enqueue({ kind: 'openai-stream', chunks: ['One ', 'two ', 'three ', 'four'], stallAfter: 2 });
      await sendMessage(suite.jawad.sidebar, 'Count slowly');
      await suite.jawad.sidebar.waitFor((win) => win.document.querySelector('button.stop'), null, 'the stop button');
      await suite.jawad.sidebar.waitFor((win) => {
        const answers = win.document.querySelectorAll<HTMLElement>('article.message.assistant .markdown');
        return answers[answers.length - 1]?.innerText.includes('two');
      }, null, 'the first chunks');
      await suite.jawad.sidebar.click('button.stop');
      const stopped = await waitForAnswer(suite.jawad.sidebar);
      expect(stopped.status).toBe('stopped');
      expect(stopped.text).toBe('One two');

      suite.provider.enqueue({ kind: 'openai-stream', chunks: ['One two three four.'] });
      await markAnswersSeen(suite.jawad.sidebar);
      await suite.jawad.sidebar.click('article.message.assistant .message-footer button', 'Retry');
      const retried = await waitForAnswer(suite.jawad.sidebar);
      expect(retried.status).toBe('complete');
      const all = await messages(suite.jawad.sidebar);
      expect(all.at(-1)!.text).toBe('One two three four.');
      expect(all.filter((m) => m.text === 'One two').length).toBe(0);
      const retryBody = suite.provider.requests.at(-1)!.json as { messages: Array<{ content: string }> };
      expect(retryBody.messages.at(-1)!.content).toBe('Count slowly');
    });

    it('reads a conversation in Arabic right to left: the question typed, each block of the answer by its own text, code left to right, the title in history', async () => {
      const { sidebar } = suite.jawad;
      await sidebar.click('.top-bar nav button', 'New chat');
      suite.provider.enqueue({
        kind: 'openai-stream',
        chunks: ['نهر **سيفرن** هو أطول نهر في بريطانيا.\n\n', '- يبلغ طوله 354 كم\n- The Severn Bore is a tidal wave.\n\n', '```js\nconst length = 354;\n```\n'],
      });
      // As it is typed: the message box reads right to left once its text does.
      await sidebar.fill('#composer-input', 'ما هو أطول نهر في بريطانيا؟');
      expect(await sidebar.eval((win) => win.getComputedStyle(win.document.querySelector('#composer-input')!).direction, null)).toBe('rtl');
      await sidebar.pressEnter('#composer-input');
      expect((await waitForAnswer(sidebar)).status).toBe('complete');

      const layout = await sidebar.eval((win) => {
        const last = (selector: string) => Array.from(win.document.querySelectorAll(selector)).at(-1)!;
        const [question, answer] = [last('article.message.user'), last('article.message.assistant')];
        const direction = (element: Element) => win.getComputedStyle(element).direction;
        // Where a block's text stands in its box: a right-to-left paragraph's ends at the box's right edge.
        const textEdges = (block: Element) => {
          const range = win.document.createRange();
          range.selectNodeContents(block);
          const [text, box] = [range.getBoundingClientRect(), block.getBoundingClientRect()];
          return { fromLeft: Math.round(text.left - box.left), fromRight: Math.round(box.right - text.right) };
        };
        const paragraph = answer.querySelector('.markdown p')!;
        return {
          question: direction(question.querySelector('.user-text')!),
          paragraph: direction(paragraph),
          paragraphEdges: textEdges(paragraph),
          list: direction(answer.querySelector('.markdown ul')!),
          items: Array.from(answer.querySelectorAll('.markdown li'), direction),
          code: direction(answer.querySelector('.markdown pre')!),
        };
      }, null);
      expect(layout).toMatchObject({ question: 'rtl', paragraph: 'rtl', list: 'rtl', items: ['rtl', 'ltr'], code: 'ltr' });
      expect(layout.paragraphEdges.fromRight).toBeLessThanOrEqual(1);
      expect(layout.paragraphEdges.fromLeft).toBeGreaterThan(20);

      await openView(sidebar, 'History');
      const title = await sidebar.eval((win) => {
        const span = Array.from(win.document.querySelectorAll('.history .conversation-title span')).find((element) => element.textContent?.startsWith('ما هو'));
        return span && win.getComputedStyle(span).direction;
      }, null);
      expect(title).toBe('rtl');
      await backToChat(sidebar);
    });

    it('lists conversations, deletes one, and clears all history', async () => {
      await suite.jawad.sidebar.click('.top-bar nav button', 'New chat');
      suite.provider.enqueue({ kind: 'openai-stream', chunks: ['Noted.'] });
      await sendMessage(suite.jawad.sidebar, 'A conversation to delete');
      await waitForAnswer(suite.jawad.sidebar);
      await openView(suite.jawad.sidebar, 'History');
      const titles = await suite.jawad.sidebar.text('.history .conversation-title');
      expect(titles).toContain('A conversation to delete');
      expect(titles).toContain('Tell me about the Severn');

      await suite.jawad.sidebar.click('.history li button[aria-label^="Delete “A conversation to delete"]');
      await suite.jawad.sidebar.waitFor((win) => !win.document.querySelector('.history')?.textContent?.includes('A conversation to delete'), null, 'the deletion');
      expect(await suite.jawad.sidebar.text('.history .conversation-title')).toContain('Tell me about the Severn');

      await suite.jawad.sidebar.click('.history button.danger', 'Clear history');
      await suite.jawad.sidebar.click('.history button.danger', 'Click again');
      await suite.jawad.sidebar.waitFor((win) => win.document.querySelector('.history')?.textContent?.includes('No conversations yet'), null, 'an empty history');
      await backToChat(suite.jawad.sidebar);
      expect(await messages(suite.jawad.sidebar)).toEqual([]);
    });
  });
}
