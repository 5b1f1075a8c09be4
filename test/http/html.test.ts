import { describe, expect, it } from 'vitest';
import { html, jsonForScript, raw } from '../../src/http/html/html.js';
import { highlightJavascript, highlightLisp } from '../../src/pages/highlight.js';

const hostile = `</script><script>alert("x")</script><img src=x onerror='y'>&`;

describe('page markup', () => {
  it('escapes every interpolated value, and only SafeHtml passes through', () => {
    expect(html`<p title="${hostile}">${hostile}</p>`.value).toBe(
      '<p title="&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=&#39;y&#39;&gt;&amp;">' +
        '&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=&#39;y&#39;&gt;&amp;</p>',
    );
    expect(html`${[raw('<b>'), 'a<b', raw('</b>')]}`.value).toBe('<b>a&lt;b</b>');
  });

  it('writes JSON that cannot close its script element and still parses back', () => {
    const value = { text: hostile, separators: '\u2028\u2029', comment: '<!--' };
    const text = jsonForScript(value).value;
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('highlights source without letting markup through', () => {
    for (const highlight of [highlightJavascript, highlightLisp]) {
      const out = highlight(`// ${hostile}\n"${hostile}" 1 (wipe) export`).value;
      expect(out).not.toContain('<script>');
      expect(out).not.toContain('<img');
      expect(out.replace(/<\/?span[^>]*>/g, '')).not.toMatch(/<|>/);
    }
    expect(highlightJavascript('export const x = 1;').value).toContain(
      '<span class="tok-keyword">export</span>',
    );
  });
});
