// Small DOM helpers for the builder: element creation without innerHTML (so no text from the
// API or a shared link is ever parsed as HTML), and SVG element creation.

const SVG_NS = 'http://www.w3.org/2000/svg';

// apply() and append() make every element the builder draws (a board is ~700 of them), so
// they avoid the allocations of Object.entries() and flat(): the start's first draw is a task
// the phone waits on.
function apply(el, attrs) {
  for (const key in attrs) {
    const value = attrs[key];
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.setAttribute('class', value);
    else if (key === 'text') el.textContent = value;
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** An HTML element: h('a', {href: '/x', class: 'y'}, 'text', otherNode). */
export function h(tag, attrs, ...children) {
  return append(apply(document.createElement(tag), attrs), children);
}

/** An SVG element. */
export function s(tag, attrs, ...children) {
  return append(apply(document.createElementNS(SVG_NS, tag), attrs), children);
}

/** Replace all children of el. */
export function fill(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

export function $$(selector, root = document) {
  return [...root.querySelectorAll(selector)];
}

/** Percent with one decimal, exact enough to compare odds at the table. */
export function pct(p) {
  if (typeof p !== 'number' || Number.isNaN(p)) return '–';
  const v = p * 100;
  if (v > 0 && v < 0.05) return '<0.1%';
  if (v < 100 && v > 99.95) return '>99.9%';
  return `${v.toFixed(1).replace(/\.0$/, '')}%`;
}

export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${Math.abs(n)}`;
  return '0';
}
