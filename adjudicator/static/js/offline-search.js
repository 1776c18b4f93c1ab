// Search in the browser, for when the phone is offline (airplane mode, a dead tournament hall).
//
// One ranking definition: /api/v1/search-data (cached by the service worker) carries the
// server's own search tables (adjudicator.search.offline_tables): stop words, the stems of every
// word the index knows, the slang table, the vocabulary with its frequencies, the reading
// weights, each entry's name phrases and specificity, and the BM25F postings. This file runs the
// server's steps on them, in the same order: parse_query (typo correction, completion of the
// word being typed, synonyms), the BM25F score of whoosh_query, named_entries and rank. Only a
// word the whole index has never seen is stemmed here, by a small fallback; such a word matches
// nothing either way.
(function () {
  'use strict';
  let dataPromise = null;

  function load() {
    if (!dataPromise) {
      dataPromise = fetch('/api/v1/search-data')
        .then((r) => (r.ok ? r.json() : Promise.reject(new Error('no search data'))))
        .then(prepare)
        .catch((err) => { dataPromise = null; throw err; });
    }
    return dataPromise;
  }

  // -- the tables, opened once ---------------------------------------------------------------
  function prepare(data) {
    const t = data.ranking;
    const stop = new Set(t.stoplist);
    const frequencies = new Map(Object.entries(t.frequencies));
    const nameWords = new Set(t.name_words);
    const indexStems = new Set();
    for (const field of Object.keys(t.bm25.postings)) {
      for (const stem of Object.keys(t.bm25.postings[field])) indexStems.add(stem);
    }
    const synonyms = new Map(t.synonyms.map(([k, vs]) => [k.join(' '), vs]));
    let longest = 0;
    for (const [k] of t.synonyms) longest = Math.max(longest, k.length);
    const singleKeys = new Set(t.synonyms.filter(([k]) => k.length === 1).map(([k]) => k[0]));
    const byDelete = new Map();
    for (const word of frequencies.keys()) {
      if (word.length < 3) continue;
      for (const k of [word, ...deletes(word)]) {
        if (!byDelete.has(k)) byDelete.set(k, new Set());
        byDelete.get(k).add(word);
      }
    }
    const sortedWords = [...frequencies.keys()].sort(codepoints);
    const phrases = new Map();  // first stem -> [[doc, phrase]]
    t.docs.forEach((d, i) => {
      for (const phrase of d[7]) {
        if (!phrases.has(phrase[0])) phrases.set(phrase[0], []);
        phrases.get(phrase[0]).push([i, phrase]);
      }
    });
    const postings = {};
    for (const [field, table] of Object.entries(t.bm25.postings)) {
      postings[field] = new Map(Object.entries(table));
    }
    return {t, stop, frequencies, nameWords, indexStems, synonyms, longest, singleKeys, byDelete, sortedWords,
      phrases, postings};
  }

  function codepoints(a, b) { return a < b ? -1 : a > b ? 1 : 0; }

  function deletes(word) {
    const out = new Set();
    for (let i = 0; i < word.length; i++) out.add(word.slice(0, i) + word.slice(i + 1));
    return out;
  }

  // -- analysis (search.words_of, search.stems_of) -------------------------------------------
  function fold(text) { return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, ''); }

  function rawWords(text) { return (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) || []); }

  function wordsOf(text) { return rawWords(text).map(fold); }

  function fallbackStem(ix, word) {
    for (const cut of ['', 's', 'es', 'ing', 'ed', 'ly', 'ies']) {
      if (cut && !word.endsWith(cut)) continue;
      const base = word.slice(0, word.length - cut.length) + (cut === 'ies' ? 'i' : '');
      if (ix.indexStems.has(base)) return base;
    }
    return word;
  }

  function stemOf(ix, word) {
    if (ix.stop.has(word) || word.length < 2) return '';
    const folded = fold(word);
    if (Object.prototype.hasOwnProperty.call(ix.t.stems, folded)) return ix.t.stems[folded];
    if (ix.frequencies.has(folded) || ix.indexStems.has(folded)) return folded;
    return fallbackStem(ix, folded);
  }

  function stemsOf(ix, text) {
    return rawWords(text).map((w) => stemOf(ix, w)).filter(Boolean);
  }

  // -- the vocabulary (search.Vocabulary) ------------------------------------------------------
  function rankOf(ix, word) { return [ix.nameWords.has(word) ? 0 : 1, -(ix.frequencies.get(word) || 0), word]; }

  function compareTuples(a, b) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (a[i] === b[i]) continue;
      if (a[i] === undefined) return -1;
      if (b[i] === undefined) return 1;
      return typeof a[i] === 'string' ? codepoints(a[i], b[i]) : a[i] - b[i];
    }
    return 0;
  }

  function isKnown(ix, word) {
    if (ix.frequencies.has(word)) return true;
    const stems = stemsOf(ix, word);
    return stems.length > 0 && stems.every((s) => ix.indexStems.has(s));
  }

  function editDistance(a, b, limit) {
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    let previous2 = [];
    let previous = Array.from({length: b.length + 1}, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      const current = [i, ...new Array(b.length).fill(0)];
      for (let j = 1; j <= b.length; j++) {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) current[j] = Math.min(current[j],
          previous2[j - 2] + 1);
      }
      if (Math.min(...current) > limit) return limit + 1;
      previous2 = previous;
      previous = current;
    }
    return previous[previous.length - 1];
  }

  function correct(ix, word) {
    if (word.length < 4 || !/^\p{L}+$/u.test(word)) return null;
    const limit = word.length <= 5 ? 1 : 2;
    const candidates = new Set();
    for (const k of [word, ...deletes(word)]) for (const c of ix.byDelete.get(k) || []) candidates.add(c);
    let best = null;
    for (const c of candidates) {
      const d = editDistance(word, c, limit);
      if (d > limit) continue;
      const key = [d, ...rankOf(ix, c)];
      if (!best || compareTuples(key, best) < 0) best = key;
    }
    return best ? best[best.length - 1] : null;
  }

  function complete(ix, prefix, limit = 6) {
    if (prefix.length < 2) return [];
    let lo = 0;
    let hi = ix.sortedWords.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (ix.sortedWords[mid] < prefix) lo = mid + 1; else hi = mid; }
    const found = [];
    for (let i = lo; i < ix.sortedWords.length; i++) {
      const w = ix.sortedWords[i];
      if (!w.startsWith(prefix)) break;
      if (w !== prefix && !ix.stop.has(w)) found.push(w);
    }
    return found.sort((a, b) => compareTuples(rankOf(ix, a), rankOf(ix, b))).slice(0, limit);
  }

  // -- a query (search.parse_query) -----------------------------------------------------------
  function clean(ix, text) {
    const max = ix.t.limits.max_query_chars;
    let out = text.slice(0, max * 4).normalize('NFKC');
    out = out.replace(/[\p{C}]/gu, ' ');
    return out.replace(/\s+/g, ' ').trim().slice(0, max);
  }

  function parseQuery(ix, raw, typing) {
    const W = ix.t.weights;
    const text = clean(ix, raw);
    if (typing === undefined || typing === null) typing = Boolean(raw) && !/\s$/.test(raw);
    const words = wordsOf(text).slice(0, ix.t.limits.max_words);
    const corrected = [];
    const completions = new Map();
    let anyCorrection = false;
    words.forEach((word, i) => {
      const last = typing && i === words.length - 1;
      const known = ix.stop.has(word) || ix.singleKeys.has(word) || word.length < 2 || isKnown(ix, word);
      const fix = known ? null : correct(ix, word);
      if (last && !ix.nameWords.has(word) && !ix.stop.has(word)) completions.set(i, complete(ix, word));
      else if (!known && fix === null) completions.set(i, complete(ix, word));
      if (fix !== null && !(completions.get(i) || []).length) {
        anyCorrection = true;
        corrected.push(fix);
      } else {
        corrected.push(word);
      }
    });
    const groups = [];
    let i = 0;
    while (i < corrected.length) {
      let span = 1;
      let replacements = [];
      for (let length = Math.min(ix.longest, corrected.length - i); length > 0; length--) {
        const k = corrected.slice(i, i + length).join(' ');
        if (ix.synonyms.has(k)) { span = length; replacements = ix.synonyms.get(k); break; }
      }
      const typed = words.slice(i, i + span);
      const readings = corrected.slice(i, i + span);
      const weight = readings.join(' ') === typed.join(' ') ? W.typed : W.fuzzy;
      const alternatives = [{stems: stemsOf(ix, readings.join(' ')), weight}];
      for (const r of replacements) alternatives.push({stems: stemsOf(ix, r.join(' ')), weight: weight * W.synonym});
      if (span === 1) (completions.get(i) || []).forEach((c, n) => alternatives.push({stems: stemsOf(ix, c),
        weight: n === 0 ? W.prefix : W.prefix_other}));
      const unique = new Map();
      for (const a of alternatives) {
        const k = a.stems.join(' ');
        if (a.stems.length && !unique.has(k)) unique.set(k, a);
      }
      if (unique.size) groups.push({typed, alternatives: [...unique.values()]});
      i += span;
    }
    return {text, groups, suggestion: anyCorrection ? corrected.join(' ') : null};
  }

  // -- BM25F over the same query (search.whoosh_query) ----------------------------------------
  function scoreAll(ix, parsed) {
    const {B, K1, boosts, doc_count: N, averages, lengths} = ix.t.bm25;
    const fields = Object.keys(boosts);
    const termScores = (field, stem) => {
      const flat = ix.postings[field].get(stem);
      if (!flat) return null;
      const df = flat.length / 2;
      const idf = Math.log(N / (df + 1)) + 1;
      const out = new Map();
      for (let k = 0; k < flat.length; k += 2) {
        const doc = flat[k];
        const tf = flat[k + 1] * boosts[field];
        const fl = lengths[field][doc];
        out.set(doc, idf * ((tf * (K1 + 1)) / (tf + K1 * ((1 - B) + (B * fl) / averages[field]))));
      }
      return out;
    };
    const weights = new Map();
    const phrases = [];
    for (const group of parsed.groups) {
      for (const a of group.alternatives) {
        if (a.stems.length === 1) {
          const k = a.stems[0];
          weights.set(k, Math.max(weights.get(k) || 0, a.weight));
        } else {
          phrases.push(a);
        }
      }
    }
    const scores = new Map();
    const add = (doc, v) => scores.set(doc, (scores.get(doc) || 0) + v);
    const perStem = new Map();
    const stemScores = (stem) => {  // summed over the fields, per document
      if (!perStem.has(stem)) {
        const sum = new Map();
        for (const f of fields) for (const [doc, v] of termScores(f, stem) || []) sum.set(doc, (sum.get(doc) || 0) + v);
        perStem.set(stem, sum);
      }
      return perStem.get(stem);
    };
    for (const [stem, w] of weights) for (const [doc, v] of stemScores(stem)) add(doc, w * v);
    for (const a of phrases) {
      const maps = a.stems.map(stemScores);
      for (const [doc] of maps[0]) {
        if (!maps.every((m) => m.has(doc))) continue;
        add(doc, a.weight * maps.reduce((s, m) => s + m.get(doc), 0));
      }
    }
    return scores;
  }

  // -- named entries and the order (search.named_entries, search.rank) ------------------------
  function consume(ix, phrase, groups, at, weight) {
    if (!phrase.length) return [[at, weight]];
    if (at >= groups.length) return [];
    let found = [];
    for (const a of groups[at].alternatives) {
      if (a.weight < ix.t.weights.naming) continue;
      const size = a.stems.length;
      if (phrase.slice(0, size).join(' ') === a.stems.join(' ')) found = found.concat(consume(ix, phrase.slice(size),
        groups, at + 1, weight * a.weight));
    }
    return found;
  }

  function namedEntries(ix, parsed) {
    const best = new Map();
    parsed.groups.forEach((group, start) => {
      const firsts = new Set(group.alternatives.filter((a) => a.weight >= ix.t.weights.naming).map((a) => a.stems[0]));
      for (const first of firsts) {
        for (const [doc, phrase] of ix.phrases.get(first) || []) {
          for (const [end, weight] of consume(ix, phrase, parsed.groups, start, 1.0)) {
            const match = {start, end, weight, length: end - start};
            const old = best.get(doc);
            const longer = !old || match.length > old.length
              || (match.length === old.length && match.weight > old.weight);
            if (longer) best.set(doc, match);
          }
        }
      }
    });
    return best;
  }

  const contains = (a, b) => a.start <= b.start && b.end <= a.end && a.length > b.length;
  const outranks = (a, b) => contains(a, b) || (a.start < b.end && b.start < a.end && a.weight > b.weight);
  const round6 = (x) => Math.round(x * 1e6) / 1e6;

  function rank(ix, parsed, scores) {
    const named = new Map([...namedEntries(ix, parsed)].filter(([d]) => scores.has(d)));
    const total = parsed.groups.length;
    const typed = wordsOf(parsed.text).join(' ');  // search.literal: small words kept
    const keys = new Map();
    for (const doc of scores.keys()) {
      const m = named.get(doc);
      if (!m) { keys.set(doc, [3, 0, 0, 0]); continue; }
      const specificity = ix.t.docs[doc][6] + ix.t.weights.length_bonus * (m.length - 1);
      const weight = round6(m.weight);
      const wordForWord = ix.t.docs[doc][8].includes(typed) ? 1 : 0;
      if (m.start === 0 && m.end === total) keys.set(doc, [0, -weight, -wordForWord, -specificity, -m.length]);
      else if ([...named].some(([d, other]) => d !== doc && outranks(other, m))) keys.set(doc,
        [2, -specificity, -weight, -m.length]);
      else keys.set(doc, [1, -specificity, -weight, -m.length]);
    }
    return [...scores.keys()].sort((a, b) => compareTuples(keys.get(a), keys.get(b)) || scores.get(b) - scores.get(a)
      || codepoints(ix.t.docs[a][3].toLowerCase(), ix.t.docs[b][3].toLowerCase()));
  }

  async function search(query, kind, {typing, limit = 20} = {}) {
    const ix = await load();
    const parsed = parseQuery(ix, query, typing);
    const scores = scoreAll(ix, parsed);
    const order = rank(ix, parsed, scores).filter((d) => !kind || ix.t.docs[d][1] === kind);
    const results = order.slice(0, limit).map((d) => {
      const [id, k, expansion, name, url, summary] = ix.t.docs[d];
      return {id, kind: k, expansion, name, url, snippet: summary, score: scores.get(d)};
    });
    let suggestion = parsed.suggestion;
    if (suggestion !== null && suggestion === parsed.text.toLowerCase()) suggestion = null;
    results.total = order.length;
    results.suggestion = suggestion;
    return results;
  }

  // On the search page served from the offline cache: answer the query in the browser.
  function renderOfflinePage() {
    const params = new URLSearchParams(location.search);
    const q = params.get('q');
    if (!q || navigator.onLine !== false) return;
    const main = document.getElementById('main');
    if (!main) return;
    search(q, params.get('kind')).then((results) => {
      const section = document.createElement('section');
      section.className = 'offline-results';
      section.setAttribute('aria-live', 'polite');
      const h = document.createElement('h1');
      h.textContent = `Offline results for “${q}”`;
      const note = document.createElement('p');
      note.className = 'muted';
      note.textContent = results.length
        ? 'You are offline: these come from the copy of the rules saved on this device, ranked as online.'
        : 'You are offline and nothing saved on this device matches.';
      const list = document.createElement('ol');
      list.className = 'entry-list';
      for (const r of results) {
        const li = document.createElement('li');
        const a = document.createElement('a');
        a.href = r.url;
        a.textContent = r.name;
        const span = document.createElement('span');
        span.className = 'muted';
        span.textContent = ` — ${r.snippet}`;
        li.append(a, span);
        list.append(li);
      }
      section.append(h, note, list);
      main.replaceChildren(section);
    }).catch(() => {});
  }

  window.adjudicatorOfflineSearch = search;
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', renderOfflinePage);
  else renderOfflinePage();
})();
