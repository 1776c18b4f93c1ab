// The accessibility audit the browser tests run on each page (tests/test_accessibility_browser.py).
// Walks every visible text node; the background is the first opaque one up the tree (the pages use
// flat colours, no text over images). Returns one line per failure.
() => {
  const parse = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null;
    const p = m[1].split(',').map(Number); return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const lum = ({r, g, b}) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const over = (fg, bg) => ({r: fg.r * fg.a + bg.r * (1 - fg.a), g: fg.g * fg.a + bg.g * (1 - fg.a),
    b: fg.b * fg.a + bg.b * (1 - fg.a), a: 1});
  const background = (el) => { for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor); if (c && c.a >= 0.99) return c; }
    return {r: 255, g: 255, b: 255, a: 1}; };
  const failures = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || seen.has(el) || !n.textContent.trim()) continue;
    seen.add(el);
    if (el.closest('svg, [aria-hidden="true"], noscript')) continue;
    const box = el.getBoundingClientRect(); const cs = getComputedStyle(el);
    if (!box.width || !box.height || cs.visibility === 'hidden' || Number(cs.opacity) === 0) continue;
    const bg = background(el); const fg = over(parse(cs.color), bg);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(cs.fontSize); const bold = Number(cs.fontWeight) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < need) failures.push(`${ratio.toFixed(2)} < ${need}: <${el.tagName.toLowerCase()} class="${el.className}"> ${n.textContent.trim().slice(0, 40)}`);
  }
  for (const c of document.querySelectorAll('input:not([type=hidden]), select, textarea, button')) {
    const named = c.getAttribute('aria-label') || c.getAttribute('aria-labelledby') || c.labels?.length
      || (c.tagName === 'BUTTON' && c.textContent.trim()) || c.getAttribute('title');
    if (!named) failures.push(`unnamed control: ${c.outerHTML.slice(0, 80)}`);
  }
  for (const img of document.querySelectorAll('img')) if (!img.hasAttribute('alt')) failures.push(`img without alt: ${img.src}`);
  if (!document.documentElement.lang) failures.push('no lang on <html>');
  if (document.querySelectorAll('h1').length !== 1) failures.push(`${document.querySelectorAll('h1').length} h1 elements`);
  return failures;
}
