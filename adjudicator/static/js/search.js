/* As-you-type search for every search box marked [data-search-input].
 *
 * Progressive enhancement: without this script each box is a plain GET form to /search. With it,
 * typing shows the best matches from /api/v1/search in a listbox under the box (combobox
 * pattern: focus stays in the box, aria-activedescendant names the highlighted option).
 * Keys: "/" focuses the search box, ArrowDown/ArrowUp move through the matches, Enter opens the
 * highlighted one (or submits the form), Escape closes the list. No external requests. */
(function () {
  "use strict";

  var DEBOUNCE_MS = 120;
  var LIMIT = 8;
  var counter = 0;

  function isEditable(el) {
    if (!el) return false;
    var tag = el.tagName;
    return el.isContentEditable || tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
  }

  /* The API escapes snippets and adds only <mark>; rebuild them from text anyway, so nothing
   * but text and <mark> can ever reach the page. */
  function snippetNode(html) {
    var holder = document.createElement("template");
    holder.innerHTML = html;
    var out = document.createDocumentFragment();
    holder.content.childNodes.forEach(function (node) {
      if (node.nodeName === "MARK") {
        var mark = document.createElement("mark");
        mark.textContent = node.textContent;
        out.appendChild(mark);
      } else {
        out.appendChild(document.createTextNode(node.textContent));
      }
    });
    return out;
  }

  function enhance(input) {
    var form = input.form;
    if (!form || input.dataset.searchEnhanced) return;
    input.dataset.searchEnhanced = "1";
    counter += 1;
    var listId = "search-suggest-" + counter;

    var list = document.createElement("ul");
    list.id = listId;
    list.className = "suggest";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", "Matching rules");
    list.hidden = true;

    var status = document.createElement("p");
    status.className = "visually-hidden";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");

    form.appendChild(list);
    form.appendChild(status);
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-controls", listId);

    var timer = null;
    var controller = null;
    var sequence = 0;
    var active = -1;

    function options() {
      return Array.prototype.slice.call(list.querySelectorAll("[role=option]"));
    }

    function setActive(index) {
      var all = options();
      if (!all.length) return;
      active = (index + all.length) % all.length;
      all.forEach(function (option, i) {
        option.setAttribute("aria-selected", i === active ? "true" : "false");
      });
      input.setAttribute("aria-activedescendant", all[active].id);
      all[active].scrollIntoView({ block: "nearest" });
    }

    function close() {
      list.hidden = true;
      active = -1;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
    }

    function open() {
      if (!list.childElementCount) return;
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
    }

    function option(id, href, build) {
      var li = document.createElement("li");
      li.id = listId + "-" + id;
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
      li.dataset.href = href;
      var link = document.createElement("a");
      link.href = href;
      link.tabIndex = -1;
      build(link);
      li.appendChild(link);
      return li;
    }

    function render(data, q) {
      list.setAttribute("data-query", q);  /* which text these matches answer */
      list.textContent = "";
      active = -1;
      input.removeAttribute("aria-activedescendant");
      data.results.forEach(function (hit, i) {
        list.appendChild(option(i, hit.url, function (link) {
          var name = document.createElement("span");
          name.className = "suggest-name";
          name.textContent = hit.name;
          var badge = document.createElement("span");
          badge.className = "badge kind-" + hit.kind;
          badge.textContent = hit.kind_label || hit.kind.replace(/_/g, " ");
          var snippet = document.createElement("span");
          snippet.className = "suggest-snippet";
          if (hit.plain) snippet.textContent = hit.snippet || "";
          else snippet.appendChild(snippetNode(hit.snippet || ""));
          link.append(name, " ", badge, snippet);
        }));
      });
      if (data.suggestion) {
        var href = "/search?q=" + encodeURIComponent(data.suggestion);
        list.appendChild(option("suggestion", href, function (link) {
          link.className = "suggest-dym";
          link.append("Did you mean ");
          var strong = document.createElement("strong");
          strong.textContent = data.suggestion;
          link.append(strong, "?");
        }));
      }
      if (data.total > data.results.length) {
        var more = "/search?q=" + encodeURIComponent(input.value);
        list.appendChild(option("all", more, function (link) {
          link.className = "suggest-all";
          link.textContent = "All " + data.total + " matching rules →";
        }));
      }
      var n = data.total;
      status.textContent = n ? n + (n === 1 ? " matching rule" : " matching rules") +
        ", use the arrow keys to choose" : "No matching rules" +
        (data.suggestion ? ". Did you mean " + data.suggestion + "?" : "");
      if (list.childElementCount) open(); else close();
    }

    function query() {
      var q = input.value;
      if (!q.trim()) {
        list.textContent = "";
        status.textContent = "";
        close();
        return;
      }
      if (controller) controller.abort();
      controller = typeof AbortController === "function" ? new AbortController() : null;
      var mine = ++sequence;
      fetch("/api/v1/search?limit=" + LIMIT + "&q=" + encodeURIComponent(q), {
        headers: { Accept: "application/json" },
        signal: controller ? controller.signal : undefined
      }).then(function (response) {
        /* Any answer but a good one (the service worker's 503 offline, a server error) falls
           back to the copy of the rules on the phone, like no answer at all. */
        if (!response.ok) throw new Error("search answered " + response.status);
        return response.json();
      }).then(function (data) {
        if (data && mine === sequence) render(data, q);
      }).catch(function (error) {
        if (error && error.name === "AbortError") return;
        offline(q, mine);
      });
    }

    /* No server (airplane mode, or it failed): the copy of the rules offline-search.js keeps. */
    function offline(q, mine) {
      if (typeof window.adjudicatorOfflineSearch !== "function") return;
      window.adjudicatorOfflineSearch(q).then(function (results) {
        if (mine !== sequence) return;
        render({
          results: results.slice(0, LIMIT).map(function (r) { return Object.assign({ plain: true }, r); }),
          total: results.length,
          suggestion: null
        }, q);
      }).catch(function () { /* nothing saved yet: the form still works */ });
    }

    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(query, DEBOUNCE_MS);
    });

    input.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        if (list.hidden) {
          open();
          if (list.hidden) return;
        }
        event.preventDefault();
        setActive(active + (event.key === "ArrowDown" ? 1 : -1) + (active < 0 && event.key === "ArrowUp" ? 1 : 0));
      } else if (event.key === "Enter") {
        var all = options();
        if (!list.hidden && active >= 0 && all[active]) {
          event.preventDefault();
          window.location.assign(all[active].dataset.href);
        }
      } else if (event.key === "Escape") {
        if (!list.hidden) {
          event.preventDefault();
          close();
        }
      }
    });

    input.addEventListener("focus", open);
    // Keep focus in the box while a pointer picks an option; the link then navigates.
    list.addEventListener("mousedown", function (event) { event.preventDefault(); });
    input.addEventListener("blur", function () { setTimeout(close, 150); });
  }

  /* On the results page, arrow keys walk the result links once focus is in the list. */
  function resultKeys(section) {
    section.addEventListener("keydown", function (event) {
      if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
      var links = Array.prototype.slice.call(section.querySelectorAll(".result-link"));
      var at = links.indexOf(document.activeElement);
      if (at < 0) return;
      event.preventDefault();
      var next = links[Math.max(0, Math.min(links.length - 1, at + (event.key === "ArrowDown" ? 1 : -1)))];
      next.focus();
    });
  }

  function start() {
    document.querySelectorAll("[data-search-input]").forEach(enhance);
    document.querySelectorAll("[data-search-results]").forEach(resultKeys);
    document.addEventListener("keydown", function (event) {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || isEditable(event.target)) return;
      var box = document.querySelector("[data-search-input]");
      if (!box) return;
      event.preventDefault();
      box.focus();
      box.select();
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
