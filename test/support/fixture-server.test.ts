import { describe, expect, it } from 'vitest';
import { DEAD_PORT, deadExternalRefs } from './fixture-server';

describe('captured pages served offline', () => {
  const dead = `http://127.0.0.1:${DEAD_PORT}/`;

  it('points absolute, protocol-relative and script-escaped references to other hosts at a dead loopback port', () => {
    const page = '<a href="https://en.wikipedia.org/wiki/X">x</a><img src="//upload.wikimedia.org/a.png"><script>u="https:\\/\\/cdn.example.com\\/a.js"</script><style>a{background:url(//fonts.example.com/f.woff)}</style>';
    const served = deadExternalRefs(page);
    expect(served).toContain(`href="${dead}en.wikipedia.org/wiki/X"`);
    expect(served).toContain(`src="${dead}upload.wikimedia.org/a.png"`);
    expect(served).toContain(`u="${dead}cdn.example.com\\/a.js"`);
    expect(served).toContain(`url(${dead}fonts.example.com/f.woff)`);
    expect(served).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
  });

  it('leaves loopback references and the page’s text alone', () => {
    const page = '<a href="http://127.0.0.1:8080/ok">see // comments, or a/b//c</a>';
    expect(deadExternalRefs(page)).toBe(page);
  });
});
