// As-you-type search for every search box marked [data-search-input].
//
// Progressive enhancement: without this script each box is a plain GET form to /search. With it,
// typing shows the best matches from /api/v1/search in a listbox under the box (combobox
// pattern: focus stays in the box, aria-activedescendant names the highlighted option).
// Keys: "/" focuses the search box, ArrowDown/ArrowUp move through the matches, Enter opens the
// highlighted one (or submits the form), Escape closes the list. No external requests.
(function () {
  'use strict';

  const DEBOUNCE_MS = 120;
  const LIMIT = 8;
  let counter = 0;

  function isEditable(el) {
    if (!el) return false;
    const tag = el.tagName;
    return el.isContentEditable || tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
  }

  /** The API escapes snippets and adds only <mark>; rebuild them from text anyway, so nothing
   * but text and <mark> can ever reach the page. */
  function snippetNode(html) {
    const holder = document.createElement('template');
    holder.innerHTML = html;
    const out = document.createDocumentFragment();
    holder.content.childNodes.forEach((node) => {
      if (node.nodeName === 'MARK') {
        const mark = document.createElement('mark');
        mark.textContent = node.textContent;
        out.appendChild(mark);
      } else {
        out.appendChild(document.createTextNode(node.textContent));
      }
    });
    return out;
  }

  function enhance(input) {
    const form = input.form;
    if (!form || input.dataset.searchEnhanced) return;
    input.dataset.searchEnhanced = '1';
    counter += 1;
    const listId = `search-suggest-${counter}`;

    const list = document.createElement('ul');
    list.id = listId;
    list.className = 'suggest';
    list.setAttribute('role', 'listbox');
    list.setAttribute('aria-label', 'Matching rules');
    list.hidden = true;

    const status = document.createElement('p');
    status.className = 'visually-hidden';
    status.setAttribute('role', 'status');
    status.setAttribute('aria-live', 'polite');

    form.appendChild(list);
    form.appendChild(status);
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-expanded', 'false');
    input.setAttribute('aria-controls', listId);

    let timer = null;
    let controller = null;
    let sequence = 0;
    let active = -1;

    function options() {
      return [...list.querySelectorAll('[role=option]')];
    }

    function setActive(index) {
      const all = options();
      if (!all.length) return;
      active = (index + all.length) % all.length;
      all.forEach((option, i) => {
        option.setAttribute('aria-selected', i === active ? 'true' : 'false');
      });
      input.setAttribute('aria-activedescendant', all[active].id);
      all[active].scrollIntoView({block: 'nearest'});
    }

    function close() {
      list.hidden = true;
      active = -1;
      input.setAttribute('aria-expanded', 'false');
      input.removeAttribute('aria-activedescendant');
    }

    function open() {
      if (!list.childElementCount) return;
      list.hidden = false;
      input.setAttribute('aria-expanded', 'true');
    }

    function option(id, href, build) {
      const li = document.createElement('li');
      li.id = `${listId}-${id}`;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', 'false');
      li.dataset.href = href;
      const link = document.createElement('a');
      link.href = href;
      link.tabIndex = -1;
      build(link);
      li.appendChild(link);
      return li;
    }

    function render(data, q) {
      list.setAttribute('data-query', q); // which text these matches answer
      list.textContent = '';
      active = -1;
      input.removeAttribute('aria-activedescendant');
      data.results.forEach((hit, i) => {
        list.appendChild(option(i, hit.url, (link) => {
          const name = document.createElement('span');
          name.className = 'suggest-name';
          name.textContent = hit.name;
          const badge = document.createElement('span');
          badge.className = `badge kind-${hit.kind}`;
          badge.textContent = hit.kind_label || hit.kind.replace(/_/g, ' ');
          const snippet = document.createElement('span');
          snippet.className = 'suggest-snippet';
          if (hit.plain) snippet.textContent = hit.snippet || '';
          else snippet.appendChild(snippetNode(hit.snippet || ''));
          link.append(name, ' ', badge, snippet);
        }));
      });
      if (data.suggestion) {
        const href = `/search?q=${encodeURIComponent(data.suggestion)}`;
        list.appendChild(option('suggestion', href, (link) => {
          link.className = 'suggest-dym';
          link.append('Did you mean ');
          const strong = document.createElement('strong');
          strong.textContent = data.suggestion;
          link.append(strong, '?');
        }));
      }
      if (data.total > data.results.length) {
        const more = `/search?q=${encodeURIComponent(input.value)}`;
        list.appendChild(option('all', more, (link) => {
          link.className = 'suggest-all';
          link.textContent = `All ${data.total} matching rules →`;
        }));
      }
      const n = data.total;
      const dym = data.suggestion ? `. Did you mean ${data.suggestion}?` : '';
      status.textContent = n ? `${n} matching rule${n === 1 ? '' : 's'}, use the arrow keys to choose`
        : `No matching rules${dym}`;
      if (list.childElementCount) open(); else close();
    }

    function query() {
      const q = input.value;
      if (!q.trim()) {
        list.textContent = '';
        status.textContent = '';
        close();
        return;
      }
      if (controller) controller.abort();
      controller = typeof AbortController === 'function' ? new AbortController() : null;
      const mine = ++sequence;
      fetch(`/api/v1/search?limit=${LIMIT}&q=${encodeURIComponent(q)}`, {
        headers: {Accept: 'application/json'},
        signal: controller ? controller.signal : undefined,
      }).then((response) => {
        // Any answer but a good one (the service worker's 503 offline, a server error) falls
        // back to the copy of the rules on the phone, like no answer at all.
        if (!response.ok) throw new Error(`search answered ${response.status}`);
        return response.json();
      }).then((data) => {
        if (data && mine === sequence) render(data, q);
      }).catch((error) => {
        if (error && error.name === 'AbortError') return;
        offline(q, mine);
      });
    }

    /** No server (airplane mode, or it failed): the copy of the rules offline-search.js keeps. */
    function offline(q, mine) {
      if (typeof window.adjudicatorOfflineSearch !== 'function') return;
      window.adjudicatorOfflineSearch(q).then((results) => {
        if (mine !== sequence) return;
        render({
          results: results.slice(0, LIMIT).map((r) => { return Object.assign({plain: true}, r); }),
          total: results.length,
          suggestion: null,
        }, q);
      }).catch(() => { /* nothing saved yet: the form still works */ });
    }

    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(query, DEBOUNCE_MS);
    });

    input.addEventListener('keydown', (event) => {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        if (list.hidden) {
          open();
          if (list.hidden) return;
        }
        event.preventDefault();
        setActive(active + (event.key === 'ArrowDown' ? 1 : -1) + (active < 0 && event.key === 'ArrowUp' ? 1 : 0));
      } else if (event.key === 'Enter') {
        const all = options();
        if (!list.hidden && active >= 0 && all[active]) {
          event.preventDefault();
          window.location.assign(all[active].dataset.href);
        }
      } else if (event.key === 'Escape') {
        if (!list.hidden) {
          event.preventDefault();
          close();
        }
      }
    });

    input.addEventListener('focus', open);
    // Keep focus in the box while a pointer picks an option; the link then navigates.
    list.addEventListener('mousedown', (event) => { event.preventDefault(); });
    input.addEventListener('blur', () => { setTimeout(close, 150); });
  }

  /** On the results page, arrow keys walk the result links once focus is in the list. */
  function resultKeys(section) {
    section.addEventListener('keydown', (event) => {
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
      const links = [...section.querySelectorAll('.result-link')];
      const at = links.indexOf(document.activeElement);
      if (at < 0) return;
      event.preventDefault();
      const next = links[Math.max(0, Math.min(links.length - 1, at + (event.key === 'ArrowDown' ? 1 : -1)))];
      next.focus();
    });
  }

  function start() {
    document.querySelectorAll('[data-search-input]').forEach(enhance);
    document.querySelectorAll('[data-search-results]').forEach(resultKeys);
    document.addEventListener('keydown', (event) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || isEditable(event.target)) return;
      const box = document.querySelector('[data-search-input]');
      if (!box) return;
      event.preventDefault();
      box.focus();
      box.select();
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
