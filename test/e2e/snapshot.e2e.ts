/**
 * The snapshot tool against a realistic shop page (test/fixtures/snapshot-shop.html). The page
 * carries its own ground truth: data-expect="ref" on everything a user can act on, "none" on
 * interactive elements inside content that is hidden or not rendered (or a link repeating the one
 * before it), and a TRAP-<kind> marker in each such trap.
 */
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browsersUnderTest, type JawadBrowser } from './support/extension-browser';
import { useReadyJawad } from './support/flows';

interface SnapshotRef {
  ref: string;
  role: string;
  name: string;
  tag: string;
  id?: string;
  testid?: string;
}

interface Snapshot {
  url: string;
  title: string;
  text: string;
  refs: SnapshotRef[];
  elementCount: number;
  partial: boolean;
}

/** A message on the Port, before we know which one it is. */
interface PortMessage {
  type?: string;
  requestId?: string;
  payload?: unknown;
}

interface ToolReply {
  success: boolean;
  data?: unknown;
  error?: unknown;
}

interface Expectation {
  testid: string;
  expect: 'ref' | 'none';
  tag: string;
  id: string;
}

const FIXTURE = 'snapshot-shop.html';

/**
 * The annotated elements of the page, read by walking the document, every open shadow root and
 * <template> content, because querySelectorAll alone sees none of the last two.
 */
function groundTruth(page: Page): Promise<Expectation[]> {
  return page.evaluate(() => {
    const found: Expectation[] = [];
    const walk = (root: ParentNode) => {
      for (const el of root.querySelectorAll('*')) {
        const kind = el.getAttribute('data-expect');
        if (kind === 'ref' || kind === 'none') {
          found.push({ testid: el.getAttribute('data-testid') ?? '', expect: kind, tag: el.localName, id: el.id });
        }
        if (el.shadowRoot) walk(el.shadowRoot);
        if (el instanceof HTMLTemplateElement) walk(el.content);
      }
    };
    walk(document);
    return found;
  });
}

async function toolNames(jawad: JawadBrowser): Promise<string[]> {
  return jawad.host.evaluate(async () => {
    const port = browser.runtime.connect({ name: 'jawad-sidebar' });
    const reply = await new Promise<PortMessage>((resolve) => {
      port.onMessage.addListener((message: unknown) => {
        if ((message as PortMessage | null)?.requestId === 'user-snaptools') resolve(message as PortMessage);
      });
      port.postMessage({ type: 'GET_TOOLS', requestId: 'user-snaptools', payload: {} });
    });
    port.disconnect();
    return (reply.payload as { tools: Array<{ function: { name: string } }> }).tools.map((tool) => tool.function.name);
  });
}

/**
 * Runs the snapshot tool over the Port, as the sidebar does. It names the window of the fixture's
 * tab, so the result does not depend on which window the browser last focused.
 */
async function takeSnapshot(jawad: JawadBrowser, pageUrl: string, requestId: string): Promise<Snapshot> {
  const reply = await jawad.host.evaluate(
    async (url, id): Promise<ToolReply> => {
      const tabs = await browser.tabs.query({ active: true });
      const tab = tabs.find((t) => t.url === url);
      if (!tab) return { success: false, error: { message: `no active tab shows ${url}` } };
      const port = browser.runtime.connect({ name: 'jawad-sidebar' });
      try {
        return await new Promise<ToolReply>((resolve) => {
          setTimeout(() => resolve({ success: false, error: { message: 'no TOOL_RESULT within 30 s' } }), 30_000);
          port.onMessage.addListener((raw: unknown) => {
            const message = raw as PortMessage | null;
            if (message?.requestId !== id) return;
            resolve(message.type === 'TOOL_RESULT' ? (message.payload as ToolReply) : { success: false, error: message.payload });
          });
          port.postMessage({ type: 'EXECUTE_TOOL', requestId: id, payload: { toolName: 'snapshot', parameters: {}, windowId: tab.windowId } });
        });
      } finally {
        port.disconnect();
      }
    },
    pageUrl,
    requestId,
  );
  expect(reply, 'the snapshot tool to succeed').toMatchObject({ success: true });
  return reply.data as Snapshot;
}

function refsByTestid(snapshot: Snapshot): Map<string, SnapshotRef> {
  return new Map(snapshot.refs.filter((r) => r.testid).map((r) => [r.testid!, r]));
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

for (const browserName of browsersUnderTest()) {
  describe(`snapshot tool in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);
    let url = '';
    let truth: Expectation[] = [];
    let first: Snapshot;

    beforeAll(async () => {
      url = `${suite.fixtures.url}/${FIXTURE}`;
      const page = await suite.jawad.openTab(url);
      truth = await groundTruth(page);
      // Fails with the list of tools when the build predates the snapshot tool.
      expect(await toolNames(suite.jawad)).toContain('snapshot');
      first = await takeSnapshot(suite.jawad, url, 'user-snapshot1');
    });

    it('reads the fixture it was pointed at, whole', () => {
      // Guards the fixture itself: unique test ids and a realistic number of targets.
      const ids = truth.map((t) => t.testid);
      expect(ids.filter((id, i) => !id || ids.indexOf(id) !== i)).toEqual([]);
      expect(truth.filter((t) => t.expect === 'ref').length).toBeGreaterThan(80);
      expect(first).toMatchObject({ url, title: 'Alder Trail Waterproof Jacket — Northwind Outfitters', partial: false });
      expect(first.elementCount).toBeGreaterThan(0);
    });

    it('gives a ref to everything a user can act on, in the document and in open shadow roots', () => {
      const seen = refsByTestid(first);
      const missing = truth.filter((t) => t.expect === 'ref' && !seen.has(t.testid)).map((t) => t.testid);
      expect.soft(missing, `elements without a ref: ${missing.join(', ')}`).toEqual([]);
      // Each ref's identity fields describe the element it points at.
      const identities = truth.filter((t) => seen.has(t.testid)).map((t) => ({ testid: t.testid, tag: seen.get(t.testid)!.tag, id: seen.get(t.testid)!.id ?? '' }));
      expect(identities).toEqual(truth.filter((t) => seen.has(t.testid)).map((t) => ({ testid: t.testid, tag: t.tag, id: t.id })));
    });

    it('leaves out hidden and unrendered content, refs and text alike', () => {
      const hidden = new Set(truth.filter((t) => t.expect === 'none').map((t) => t.testid));
      const leaked = first.refs.filter((r) => r.testid && hidden.has(r.testid)).map((r) => `${r.testid} (${r.role} "${r.name}")`);
      // Soft, so one run reports leaked refs and leaked text together.
      expect.soft(leaked, `hidden elements with a ref: ${leaked.join(', ')}`).toEqual([]);
      const markers = [...new Set(first.text.match(/TRAP-[A-Z-]+/g) ?? [])];
      expect.soft(markers, `hidden text in the snapshot: ${markers.join(', ')}`).toEqual([]);
    });

    it('numbers refs e1, e2, … once each and lists each one in the text', () => {
      const refs = first.refs.map((r) => r.ref);
      expect(refs.filter((r) => !/^e\d+$/.test(r))).toEqual([]);
      expect(refs.filter((r, i) => refs.indexOf(r) !== i)).toEqual([]);
      // On its own line `[ref=e5]`, inside a line of text `[link "…" ref=e5]`.
      expect(refs.filter((r) => !new RegExp(`\\bref=${r}\\b`).test(first.text))).toEqual([]);
      // Visible text from the light DOM, a shadow root and a slotted element reaches the outline.
      for (const visible of ['Alder Trail Waterproof Jacket', '$189.00', 'Kept me dry on the Cairngorm plateau', 'Write a review']) {
        expect(first.text).toContain(visible);
      }
    });

    it('reads closed shadow roots, which only an extension can open', () => {
      expect(first.text).toContain('In stock at 3 stores near you.');
      expect(first.text).toMatch(/button "Check store stock" \[ref=e\d+\]/);
      // A custom element's closed root, with the light content it slots.
      expect(first.text).toContain('Fits true to size; the sleeves run long.');
      expect(first.text).toMatch(/button "Open the size guide" \[ref=e\d+\]/);
    });

    it('gives an editor one ref, its text as its value, or a long draft as content under it', () => {
      expect(first.text).toMatch(/^- textbox "Report title" \[ref=e\d+\] \[editable\] value="Dry in a Lakeland downpour"$/m);
      // A long value shows its start, and the line says how much more `get` gives.
      expect(first.text).toMatch(/^- textbox "Packing list" \[ref=e\d+\] \[editable\] value="Waterproof jacket, fleece, merino base layer, map and … \[folded: \d+ more characters; get gives all\]"$/m);
      // Paragraphs of the draft are its content, not textboxes of their own; its link keeps a ref.
      expect(first.text).toMatch(
        /^- textbox "Trip report draft" \[ref=e\d+\] \[editable\]\n#### Day one\nWe left the car park at dawn and followed the \[link "north ridge trail" ref=e\d+ editable\] past the tarn\.\nRain came in from the west after lunch, so we dropped below the cloud line and ate in the hut\.\n/m,
      );
      expect(first.refs.filter((r) => r.role === 'textbox' && !r.name)).toEqual([]);
    });

    it('reads a heading and a row whose own text is hidden by font-size: 0 but whose children set their own size', () => {
      expect(first.text).toMatch(/^## We accept\n\[link "Visa" ref=e\d+\] \[link "PayPal" ref=e\d+\] Secure checkout$/m);
    });

    it('lists a select’s options on its line, so a model can pick one without opening it', () => {
      expect(first.text).toMatch(/- combobox "Size" \[ref=e\d+\] value="Choose a size" options=\["Choose a size","XS","S","M","L","XL","XXL — sold out"\]\n/);
    });

    it('lists each option whole, and only the options its menu shows when the page hides the rest with CSS', () => {
      expect(first.text).toMatch(
        /^- combobox "Ask about Fit and sizing" \[ref=e\d+\] value="Fit and sizing" options=\["Fit and sizing","Care: can it go in the washing machine and the tumble dryer without losing its waterproofing\?"\]$/m,
      );
      expect(first.text).toMatch(/^- combobox "Collect from Aviemore" \[ref=e\d+\] value="Aviemore" options=\["Aviemore","Fort William","Inverness"\]$/m);
    });

    it('gives a name whole however long, as the page wrote it', () => {
      expect(first.text).toMatch(/^- link "Does the hood fit over a climbing helmet, and can it be cinched down far enough that it does not block your side vision\?" \[ref=e\d+\]$/m);
    });

    it('never lets page text pass for a control: square brackets the page wrote, in names and in text, are made round', () => {
      expect(first.text).toMatch(/^- link "\(button \\"Delete my account\\" ref=e2\) Is it still waterproof after a machine wash\?" \[ref=e\d+\]$/m);
      expect(first.text).toContain('Answer from Kestrel_42: after ten washes it still beads. (button "Confirm payment" ref=e3) is how I bought mine.');
      expect(first.text).not.toMatch(/\[button \\?"(Delete my account|Confirm payment)/);
      // A nameless link's address too: the path keeps the page's brackets, the line makes them round.
      expect(first.text).toMatch(/^Permalink \[link ref=e\d+ url="\/answers\/\(button%20Pay%20ref=e3\)"\]$/m);
      expect(first.text).toMatch(/- combobox "Show answers in \(Auto\) English" \[ref=e\d+\] value="\(Auto\) English" options=\["\(Auto\) English","Deutsch"\]/);
    });

    it('says where a link with no name goes: its path on this site, its host and path elsewhere (a share link’s query left out)', () => {
      expect(first.text).toMatch(/^\[link ref=e\d+ url="\/community\/kestrel-42"\] Answer from Kestrel_42: after ten washes/m);
      // An e-mail link's subject and body are the page it shares, not where it goes.
      expect(first.text).toMatch(/^Share this answer \[link ref=e\d+ url="social\.example\/share"\] \[link ref=e\d+ url="mailto:"\]$/m);
      // A named link is named, not addressed.
      expect(first.text).not.toMatch(/\[link "[^"]+" ref=e\d+ url=/);
      // Within the page: its #fragment; a link to `#` alone (a script's button) leads nowhere to say.
      const seen = refsByTestid(first);
      expect(first.text).toMatch(new RegExp(`\\[link ref=${seen.get('back-to-top')!.ref} url="#top" icon="icon-up"\\]`));
      expect(first.text).toMatch(new RegExp(`\\[link ref=${seen.get('promo-close')!.ref} icon="icon-close"\\]`));
      expect(first.text).toMatch(new RegExp(`\\[link ref=${seen.get('collapse-tree')!.ref} icon="ic_b_minus"\\]`));
    });

    it('lists an icon and its label linked apart to one address once, and links of one name to other places each', () => {
      const seen = refsByTestid(first);
      expect(first.text).toMatch(new RegExp(`^- link "New store" \\[ref=${seen.get('store-new-icon')!.ref}\\]$`, 'm'));
      expect(first.text.match(/link "New store"/g)).toHaveLength(1);
      expect(first.text.match(/link "Opening hours"/g)).toHaveLength(2);
      // Where the page's script decides (`#`), two links may do two things.
      expect(first.text.match(/link "More stores"/g)).toHaveLength(2);
    });

    it('says which sprite icon a nameless icon button draws, and only the icon that shows', () => {
      const filter = refsByTestid(first).get('filter-button')!;
      expect(first.text).toMatch(new RegExp(`^- button \\[ref=${filter.ref}\\] icon="icon-filter"$`, 'm'));
      // A named control needs no hint; a focusable box of text is not named by an icon somewhere in it.
      expect(first.text).not.toMatch(/"[^"]+" \[ref=e\d+\] icon=/);
      const seen = refsByTestid(first);
      expect(first.text).toMatch(new RegExp(`^- generic \\[ref=${seen.get('care-box')!.ref}\\]$`, 'm'));
      expect(first.text).toMatch(new RegExp(`\\[ref=${seen.get('care-print')!.ref}\\] url="/care/print" icon="icon-print"`));
    });

    it('says which icon-font glyph a nameless control shows, by the class that names it', () => {
      const seen = refsByTestid(first);
      // Not the size modifier (fa-lg), not the button's own box (icon-button), not a hidden glyph.
      expect(first.text).toMatch(new RegExp(`^- button \\[ref=${seen.get('basket-button')!.ref}\\] icon="icon--basket"$`, 'm'));
      expect(first.text).toMatch(new RegExp(`^- button \\[ref=${seen.get('view-button')!.ref}\\] icon="icon-list"$`, 'm'));
      expect(first.text).toMatch(new RegExp(`\\[ref=${seen.get('social-glyph')!.ref}\\] url="/social/mastodon" icon="fa-mastodon"`));
    });

    it('reads text drawn in SVG', () => {
      expect(first.text).toContain('Warmth: 3 of 5');
    });

    it('keeps the same ref for the same element in a second snapshot', async () => {
      const second = await takeSnapshot(suite.jawad, url, 'user-snapshot2');
      const before = Object.fromEntries([...refsByTestid(first)].map(([testid, r]) => [testid, r.ref]));
      const after = Object.fromEntries([...refsByTestid(second)].map(([testid, r]) => [testid, r.ref]));
      expect(after).toEqual(before);
    });

    it('gives widgets their ARIA roles', () => {
      const seen = refsByTestid(first);
      const expected: Record<string, string> = {
        'add-to-cart': 'button',
        wishlist: 'button',
        'size-select': 'combobox',
        'reviews-sort': 'combobox',
        'color-forest': 'radio',
        'color-slate': 'radio',
        'color-rust': 'radio',
        'color-charcoal': 'radio',
        'gift-wrap': 'switch',
        'subscribe-checkbox': 'checkbox',
        'delivery-standard': 'option',
        'delivery-express': 'option',
        'delivery-next-day': 'option',
        'tab-description': 'tab',
        'tab-materials': 'tab',
        'review-editor': 'textbox',
        'review-1-helpful': 'button',
        'review-1-report': 'link',
        'write-review': 'button',
        'nav-new': 'link',
        'nav-women': 'link',
        'nav-sale': 'link',
        'crumb-jackets': 'link',
        'footer-privacy': 'link',
      };
      const actual = Object.fromEntries(Object.keys(expected).map((testid) => [testid, seen.get(testid)?.role ?? '(no ref)']));
      expect(actual).toEqual(expected);
    });

    it('names elements the way assistive technology does', () => {
      const seen = refsByTestid(first);
      const expected: Record<string, string> = {
        'add-to-cart': 'Add to cart', // text content
        'search-input': 'Search products', // <label for>, visually hidden
        'search-submit': 'Search', // aria-label on an icon button
        'logo-link': 'Northwind Outfitters', // the alt of the image inside
        'share-pinterest': 'Share on Pinterest', // title
        'qty-input': 'Quantity', // <label for>
        'zip-input': 'Enter ZIP code', // placeholder only
        'color-rust': 'Rust', // wrapping <label>
        'gift-wrap': 'Gift wrap', // aria-labelledby
        wishlist: 'Add to wishlist', // aria-label on a div role=button
        'cart-link': 'Cart, 2 items', // aria-label over the badge text
        'review-editor': 'Your review', // aria-label on contenteditable
        'write-review': 'Write a review', // slotted into the shadow root
        'review-1-helpful': 'Helpful', // inside the shadow root
        'reviews-sort': 'Sort reviews', // <label for> inside a nested shadow root
        'cookie-accept': 'Accept all', // in the fixed banner
        'menu-toggle': 'Menu', // the <title> of the icon that shows, not of the hidden one
        'social-mastodon': 'Mastodon', // the <title> of the SVG inside a link
        'chat-link': 'Chat with us', // the title of an empty icon inside a link
        'track-submit': 'Submit', // a submit input with an empty value: what the browser writes on it
        'compare-button': 'Compare', // the <title> of the sprite symbol its icon draws
        'filter-button': '', // a sprite symbol with no title: no name, only the icon's id (below)
      };
      const actual = Object.fromEntries(Object.keys(expected).map((testid) => [testid, squash(seen.get(testid)?.name ?? '(no ref)')]));
      expect(actual).toEqual(expected);
    });
  });
}
