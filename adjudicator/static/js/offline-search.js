// Search in the browser, for when the phone is offline (airplane mode, a dead tournament hall).
//
// Uses /api/v1/search-data (cached by the service worker): every entry's id, kind, name,
// aliases, summary and URL, plus the slang table of content/synonyms.yaml. The ranking is a
// small version of the server's: the entry a query names comes first, then entries whose names
// hold every word, then summaries; one typo is forgiven in words of four letters or more.
(function () {
  "use strict";
  let dataPromise = null;

  function load() {
    if (!dataPromise) {
      dataPromise = fetch("/api/v1/search-data")
        .then((r) => (r.ok ? r.json() : Promise.reject(new Error("no search data"))))
        .catch((err) => { dataPromise = null; throw err; });
    }
    return dataPromise;
  }

  function words(text) {
    return (text || "").toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      .split(/[^a-z0-9]+/).filter(Boolean);
  }

  function singular(w) {
    return w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w;
  }

  function nearlyEqual(a, b) {  // edit distance <= 1
    if (a === b) return true;
    if (Math.min(a.length, b.length) < 4 || Math.abs(a.length - b.length) > 1) return false;
    let i = 0, j = 0, edits = 0;
    while (i < a.length && j < b.length) {
      if (a[i] === b[j]) { i++; j++; continue; }
      if (++edits > 1) return false;
      if (a.length > b.length) i++; else if (b.length > a.length) j++; else { i++; j++; }
    }
    return edits + (a.length - i) + (b.length - j) <= 1;
  }

  function expand(query, synonyms) {
    const base = words(query);
    const phrases = [base.join(" ")];
    for (let size = 3; size >= 1; size--) {
      for (let i = 0; i + size <= base.length; i++) {
        const key = base.slice(i, i + size).join(" ");
        for (const meaning of synonyms[key] || []) {
          phrases.push([...base.slice(0, i), meaning, ...base.slice(i + size)].join(" "));
        }
      }
    }
    return [...new Set(phrases)];
  }

  function score(entry, phrase) {
    const [, , name, aliases, summary] = entry;
    const q = words(phrase).map(singular);
    if (!q.length) return 0;
    const names = [name, ...aliases].map((n) => words(n).map(singular));
    const joined = q.join(" ");
    if (names.some((n) => n.join(" ") === joined)) return 1000;
    const nameWords = names.flat();
    const summaryWords = words(summary).map(singular);
    let s = 0;
    let inNames = 0;
    for (const w of q) {
      if (nameWords.includes(w)) { s += 40; inNames++; }
      else if (nameWords.some((n) => nearlyEqual(n, w) || (w.length >= 3 && n.startsWith(w)))) { s += 25; inNames++; }
      else if (summaryWords.includes(w)) s += 6;
      else if (summaryWords.some((n) => nearlyEqual(n, w))) s += 3;
    }
    if (inNames === q.length) s += 100;
    return s / Math.max(1, nameWords.length / 4);
  }

  async function search(query, kind) {
    const data = await load();
    const phrases = expand(query, data.synonyms || {});
    const results = [];
    for (const entry of data.entries) {
      if (kind && entry[1] !== kind) continue;
      const best = Math.max(...phrases.map((p, i) => score(entry, p) * (i === 0 ? 1 : 0.95)));
      if (best > 0) results.push({ id: entry[0], kind: entry[1], name: entry[2], snippet: entry[4], url: entry[5], score: best });
    }
    results.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
    const floor = results.length ? results[0].score / 4 : 0;  // drop the long weak tail
    return results.filter((r) => r.score >= floor).slice(0, 20);
  }

  // On the search page served from the offline cache: answer the query in the browser.
  function renderOfflinePage() {
    const params = new URLSearchParams(location.search);
    const q = params.get("q");
    if (!q || navigator.onLine !== false) return;
    const main = document.getElementById("main");
    if (!main) return;
    search(q, params.get("kind")).then((results) => {
      const section = document.createElement("section");
      section.className = "offline-results";
      section.setAttribute("aria-live", "polite");
      const h = document.createElement("h1");
      h.textContent = `Offline results for “${q}”`;
      const note = document.createElement("p");
      note.className = "muted";
      note.textContent = results.length
        ? "You are offline: these come from the copy of the rules saved on this device."
        : "You are offline and nothing saved on this device matches.";
      const list = document.createElement("ol");
      list.className = "entry-list";
      for (const r of results) {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = r.url;
        a.textContent = r.name;
        const span = document.createElement("span");
        span.className = "muted";
        span.textContent = " — " + r.snippet;
        li.append(a, span);
        list.append(li);
      }
      section.append(h, note, list);
      main.replaceChildren(section);
    }).catch(() => {});
  }

  window.adjudicatorOfflineSearch = search;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", renderOfflinePage);
  else renderOfflinePage();
})();
