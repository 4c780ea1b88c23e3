/**
 * Bundle sizes as the browser loads them: start from what the manifest / the HTML page names, then
 * follow the static imports of the built chunks, so shared chunks are counted wherever they load.
 * Each file is gzipped on its own (level 9) and the sizes are summed — extensions load from disk,
 * so gzip is a proxy for "how much code", not a transfer size.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface FileSize {
  /** Path inside the dist folder. */
  path: string;
  raw: number;
  gzip: number;
}

export interface BundleSize {
  files: FileSize[];
  raw: number;
  gzip: number;
  /** Chunks reachable only through import(): loaded later, not counted. */
  lazy: string[];
  note?: string;
}

export interface BundleReport {
  dist: string;
  sidebar: BundleSize;
  background: BundleSize;
  /** Scripts the manifest injects into every matching page. */
  contentScripts: BundleSize;
  /** src/content/reader.iife.js, injected with scripting.executeScript only when a page is read. */
  reader: BundleSize;
}

interface Manifest {
  background?: { service_worker?: string; scripts?: string[] };
  content_scripts?: Array<{ js?: string[]; css?: string[] }>;
}

// Static imports in built ESM: `import{a as b}from"./x.js"`, `import "./x.js"`, `export*from"./x.js"`.
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"'\n]+\.m?js)["']/g;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*["']([^"'\n]+\.m?js)["']\s*\)/g;
// crxjs content-script loaders import their chunk through runtime.getURL("assets/x.js").
const GET_URL = /\.getURL\(\s*["']([^"'\n]+\.m?js)["']\s*\)/g;
const CSS_IMPORT = /@import\s+(?:url\()?\s*["']?([^"')\s;]+)["']?\s*\)?/g;

function matches(re: RegExp, text: string): string[] {
  return [...text.matchAll(re)].map((m) => m[1]!);
}

/** Resolves a URL found in `fromFile` to a path on disk: "/x" is the extension root, "./x" is relative. */
function resolveRef(dist: string, fromFile: string, ref: string): string | undefined {
  if (/^[a-z][\w+.-]*:/i.test(ref)) return undefined; // data:, https:, chrome-extension: — not a packaged file
  return ref.startsWith('/') ? join(dist, ref) : resolve(dirname(fromFile), ref);
}

/** The scripts and stylesheets an HTML page loads before it runs (script src, stylesheet, modulepreload). */
export function htmlEntries(htmlFile: string, dist: string): string[] {
  const html = readFileSync(htmlFile, 'utf8');
  const refs: string[] = [];
  for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
    const src = /\bsrc\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1];
    if (src) refs.push(src);
  }
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    const rel = /\brel\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1]?.toLowerCase() ?? '';
    const href = /\bhref\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1];
    if (href && /\b(stylesheet|modulepreload)\b/.test(rel)) refs.push(href);
  }
  return refs.flatMap((ref) => resolveRef(dist, htmlFile, ref) ?? []);
}

/** Every file reachable from `entries` through static imports (JS) and @import (CSS). */
function staticGraph(dist: string, entries: string[]): { files: string[]; lazy: string[] } {
  const seen = new Set<string>();
  const lazy = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    if (!existsSync(file)) throw new Error(`${relative(dist, file)} is referenced but missing from ${dist}`);
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    const isCss = file.endsWith('.css');
    const refs = isCss ? matches(CSS_IMPORT, text) : [...matches(STATIC_IMPORT, text), ...matches(GET_URL, text).map((p) => `/${p.replace(/^\//, '')}`)];
    for (const ref of refs) {
      const target = resolveRef(dist, file, ref);
      if (target) queue.push(target);
    }
    if (!isCss) for (const ref of matches(DYNAMIC_IMPORT, text)) lazy.add(resolveRef(dist, file, ref) ?? ref);
  }
  return { files: [...seen], lazy: [...lazy].filter((f) => !seen.has(f)) };
}

function measure(dist: string, entries: string[], note?: string): BundleSize {
  const { files, lazy } = staticGraph(dist, entries);
  const sizes = files.map((file) => {
    const bytes = readFileSync(file);
    return { path: relative(dist, file), raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  return {
    files: sizes,
    raw: sizes.reduce((sum, f) => sum + f.raw, 0),
    gzip: sizes.reduce((sum, f) => sum + f.gzip, 0),
    lazy: lazy.map((f) => relative(dist, f)),
    ...(note ? { note } : {}),
  };
}

export function measureBundles(dist: string): BundleReport {
  const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8')) as Manifest;
  const backgroundFiles = manifest.background?.service_worker ? [manifest.background.service_worker] : (manifest.background?.scripts ?? []);
  const contentFiles = (manifest.content_scripts ?? []).flatMap((cs) => [...(cs.js ?? []), ...(cs.css ?? [])]);
  const reader = join(dist, 'src/content/reader.iife.js');
  return {
    dist,
    sidebar: measure(dist, htmlEntries(join(dist, 'src/sidebar/index.html'), dist)),
    background: measure(dist, backgroundFiles.map((f) => join(dist, f))),
    contentScripts: measure(
      dist,
      contentFiles.map((f) => join(dist, f)),
      contentFiles.length === 0 ? 'none (reader injected on demand)' : undefined,
    ),
    reader: existsSync(reader) ? measure(dist, [reader], 'on demand, not in every page') : { files: [], raw: 0, gzip: 0, lazy: [], note: 'missing' },
  };
}
