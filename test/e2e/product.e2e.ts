/**
 * Product facts from what shop pages declare (JSON-LD, microdata, OpenGraph) or, failing that,
 * from what they show.
 */
import { describe, expect, it } from 'vitest';
import { browsersUnderTest } from './support/extension-browser';
import { useReadyJawad } from './support/flows';
import { runTool } from './support/run-tool';

type ReadPage = { product: Record<string, unknown> | null; markdown: string };

for (const browserName of browsersUnderTest()) {
  describe(`product facts in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);

    async function productOf(page: string) {
      await suite.jawad.openTab(`${suite.fixtures.url}/${page}`);
      const result = await runTool<ReadPage>(suite.jawad, 'read_page');
      expect(result.success, JSON.stringify(result.error)).toBe(true);
      return result.data!.product;
    }

    it('prefers JSON-LD (inside an @graph, past a broken block) over OpenGraph', async () => {
      expect(await productOf('product.html')).toEqual({
        name: 'Severn Trail Jacket', price: '129.00', currency: 'GBP', brand: 'Severn Outdoor', rating: '4.6', availability: 'InStock', sources: ['json-ld'],
      });
    });

    it('reads microdata and fills what it lacks from OpenGraph', async () => {
      expect(await productOf('product-microdata.html')).toEqual({
        name: 'Estuary Dry Bag 20 L', price: '34.50', currency: 'EUR', brand: 'Channel Gear', availability: 'OutOfStock', sources: ['microdata', 'opengraph'],
      });
    });

    it('falls back to the visible heading and price, and finds nothing on a page that sells nothing', async () => {
      expect(await productOf('product-visible.html')).toEqual({ name: 'Brass Tide Clock', price: '24.99', currency: 'GBP', sources: ['visible'] });
      expect(await productOf('article.html')).toBeNull();
    });

    it('reports no product for an encyclopedia article that mentions prices beside a button', async () => {
      expect(await productOf('encyclopedia-article.html')).toBeNull();
    });
  });
}
