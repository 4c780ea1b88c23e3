import { crx, type ManifestV3Export } from '@crxjs/vite-plugin';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';

type Target = 'chrome' | 'firefox';

function manifestFor(target: Target): ManifestV3Export {
  return JSON.parse(readFileSync(resolve(import.meta.dirname, `manifest.${target}.json`), 'utf8')) as ManifestV3Export;
}

/**
 * crxjs lists every `?script` file under web_accessible_resources, which would let any web page
 * detect Jawad by fetching it; scripting.executeScript does not need that. It also leaves the ES
 * module twin of each IIFE script in assets/, which nothing loads. This removes both.
 */
function keepOnDemandScriptsPrivate(outDir: string): Plugin {
  return {
    name: 'jawad:keep-on-demand-scripts-private',
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (/^assets\/[\w-]+\.iife\.ts-[\w-]+\.js$/.test(fileName)) delete bundle[fileName];
      }
    },
    // crxjs writes the final manifest after its IIFE sub-build, so this edits the written file.
    closeBundle() {
      const path = resolve(outDir, 'manifest.json');
      if (!existsSync(path)) return;
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as { web_accessible_resources?: Array<{ resources: string[] }> };
      const kept = (manifest.web_accessible_resources ?? [])
        .map((entry) => ({ ...entry, resources: entry.resources.filter((r) => !r.endsWith('.iife.js')) }))
        .filter((entry) => entry.resources.length > 0);
      if (kept.length > 0) manifest.web_accessible_resources = kept;
      else delete manifest.web_accessible_resources;
      writeFileSync(path, JSON.stringify(manifest, null, 2));
    },
  };
}

/**
 * pdf.js's character maps (src/pdf/read-pdf.ts reads them from `/pdfjs/cmaps/`): without them the
 * text of a PDF in a CJK font cannot be read. Fetched by pdf.js only for such fonts.
 */
function shipPdfCharacterMaps(): Plugin {
  const folder = resolve(import.meta.dirname, 'node_modules/pdfjs-dist/cmaps');
  return {
    name: 'jawad:ship-pdf-character-maps',
    generateBundle() {
      for (const name of readdirSync(folder)) this.emitFile({ type: 'asset', fileName: `pdfjs/cmaps/${name}`, source: readFileSync(resolve(folder, name)) });
    },
  };
}

/** `vite build --mode chrome|firefox`: one source, one output folder per browser. */
export default defineConfig(({ mode }) => {
  if (mode !== 'chrome' && mode !== 'firefox') throw new Error(`Build with --mode chrome or --mode firefox (got "${mode}")`);
  const target: Target = mode;
  // JAWAD_DIST lets parallel work build into its own folder without clobbering dist/.
  const outDir = `${process.env.JAWAD_DIST ?? 'dist'}/${target}`;
  return {
    plugins: [crx({ manifest: manifestFor(target), browser: target }), keepOnDemandScriptsPrivate(resolve(import.meta.dirname, outDir)), shipPdfCharacterMaps()],
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
      rollupOptions: {
        // crxjs does not know `sidebar_action.default_panel`; without these inputs the Firefox
        // build silently ships no sidebar. The welcome page opens the panel from a click.
        input: {
          sidebar: resolve(import.meta.dirname, 'src/sidebar/index.html'),
          welcome: resolve(import.meta.dirname, 'src/welcome/index.html'),
          grantMic: resolve(import.meta.dirname, 'src/grant-mic/index.html'),
          // The bridge popup (seed 004): reachable from the toolbar button's menu and the Bridge view.
          popup: resolve(import.meta.dirname, 'src/popup/index.html'),
          // Chromium reads PDFs in an offscreen document; Firefox's background page reads them itself.
          ...(target === 'chrome' ? { offscreen: resolve(import.meta.dirname, 'src/offscreen/index.html') } : {}),
        },
      },
    },
    server: { port: 5173, strictPort: true, hmr: { port: 5173 } },
    legacy: { skipWebSocketTokenCheck: true },
  };
});
