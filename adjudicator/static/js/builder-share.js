// Situations in and out of the builder: the share link kept in the address bar (and read back
// from it: Back and Forward walk the situations), "Copy link", "Save" (a short link), "Copy the
// ruling" as text, the .m44 import and the example gallery. The link's format is
// builder-state.js's.

import {postJSON} from './builder-api.js';
import {$, fill, h, pct} from './builder-dom.js';
import {hexLabel} from './builder-results.js';
import {LinkTooLarge, decodeFragment, encodeFragment, key, savedDoc} from './builder-state.js';
import {message} from './builder-view.js';

/** "1 unit", "2 units". */
function count(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

function linkBox(url, label) {
  const input = h('input', {type: 'text', readonly: true, value: url, class: 'link-input', 'aria-label': label});
  input.addEventListener('focus', () => input.select());
  return h('div', {class: 'link-box'}, h('span', {class: 'label'}, label), input);
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export class Share {
  /** `api`: the endpoint URLs of the page data; `load(next, opts)`: the controller's;
   * `startMove(unit)`: move mode, where a movement example opens; `showRuling()` unfolds the
   * ruling (on a phone). */
  constructor({store, content, data, readonly, load, startMove, showRuling}) {
    Object.assign(this, {store, content, examples: data.examples, api: data.api, readonly, load, startMove,
      showRuling});
    this.lastFragment = null; // the fragment this page wrote last, so reading it back is a no-op
    this.urlTimer = null;
    this.pushNext = false;
  }

  bind() {
    $('#copy-link').addEventListener('click', () => this.copyLink());
    $('#save').addEventListener('click', () => this.save());
    $('#copy-ruling').addEventListener('click', () => this.copyRuling());
    $('#m44-file').addEventListener('change', (e) => this.importFile(e));
    window.addEventListener('popstate', () => this.fromLocation());
    window.addEventListener('hashchange', () => this.fromLocation());
  }

  /** Write the situation into the address bar: at once as a new history entry (`push`), else
   * after a pause, in place of the current one. */
  scheduleUrl(push) {
    this.pushNext = this.pushNext || push;
    clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(async () => {
      const fragment = await encodeFragment(this.store.state);
      this.lastFragment = fragment;
      const url = `${location.pathname}${location.search}#${fragment}`;
      if (this.pushNext) history.pushState(null, '', url);
      else history.replaceState(null, '', url);
      this.pushNext = false;
    }, push ? 0 : 250);
  }

  /** The situation the address bar's fragment holds, loaded (a damaged link is said so). */
  async fromLocation() {
    const decoded = await this.readLocation();
    if (decoded) this.load(decoded, {push: false});
  }

  /** The situation in the address bar's fragment, decoded (null when there is none, it is the one
   * this page wrote last, or it is damaged: then the message says so). */
  async readLocation() {
    if (this.readonly) return null;
    const fragment = location.hash.replace(/^#/, '');
    if (!fragment || fragment === this.lastFragment) return null;
    try {
      const decoded = await decodeFragment(fragment, this.content.limits.max_link_bytes);
      if (decoded) this.lastFragment = fragment;
      return decoded;
    } catch (err) {
      if (err instanceof LinkTooLarge) {
        message(`This link was not opened: ${err.message}. A link this builder makes is a few KB; `
          + 'ask for the link again, or for a saved one (/s/…).', 'error');
      } else {
        message(`This link is damaged (${err.message}); starting from an empty board.`, 'error');
      }
      return null;
    }
  }

  async shareUrl() {
    const fragment = await encodeFragment(this.store.state);
    this.lastFragment = fragment;
    history.replaceState(null, '', `${location.pathname}#${fragment}`);
    return `${location.origin}/builder#${fragment}`;
  }

  async copyLink() {
    const url = await this.shareUrl();
    const ok = await copyText(url);
    fill($('#share-out'), h('p', {class: ok ? 'good' : ''}, ok ? 'Link copied.' : 'Copy this link:'),
      linkBox(url, 'Share link'));
  }

  /** A saved situation opens read-only; "Copy to edit" takes it to the builder as a link. */
  bindCopyToEdit() {
    const copy = $('#copy-to-edit');
    copy.hidden = false;
    copy.addEventListener('click', async () => {
      location.href = `/builder#${await encodeFragment(this.store.state)}`;
    });
  }

  /** What stands on a hex, as the copied text says it: "f4 (Hedgerow)", "F5 (Forest, Axis Armor)". */
  hexText(p) {
    const {store, content} = this;
    const cell = store.cell(p.row, p.col);
    const unit = store.unitAt(p.row, p.col);
    const what = [cell.terrain ? content.name(cell.terrain) : null, cell.obstacle ? content.name(cell.obstacle) : null,
      unit ? `${content.sideName(unit.side)} ${content.unitName(unit)}` : null].filter(Boolean);
    return `${hexLabel(store.board(), p)} (${what.length ? what.join(', ') : 'countryside'})`;
  }

  /** The ruling as plain text a referee can paste into a chat or a forum post: the situation in
   * one line, the verdict, each dice step with its one citation (the section behind its rule and
   * fact), the line of sight with its reasoning (what stands on each hex it crosses or runs along,
   * and why that blocks or not), and a short link. */
  rulingText(link) {
    const {store, content} = this;
    const {state} = store;
    const b = store.ui.results.battle?.data;
    const bd = store.board();
    const attacker = store.attacker();
    const target = store.target();
    if (!b || !target || (!attacker && !b.card_attack)) return '';
    const on = (u) => {
      const cell = state.hexes.get(key(u.row, u.col)) || {};
      const where = [cell.terrain ? content.name(cell.terrain) : null,
        cell.obstacle ? content.name(cell.obstacle) : null].filter(Boolean).join(' + ');
      const figures = `${u.figures} figure${u.figures === 1 ? '' : 's'}`;
      const name = `${content.sideName(u.side)} ${content.unitName(u)}`;
      return `${name} (${figures}) on ${hexLabel(bd, u)} (${where || 'countryside'})`;
    };
    const cite = (x) => (x?.rule ? ` [${content.citation(x.rule, x.fact)}]` : '');
    const said = (x) => (typeof x === 'string' ? x : `${x.text || ''}${cite(x)}`);
    const who = b.card_attack ? `${content.name(state.card)} (the card attacks by itself)` : on(attacker);
    const lines = [`${who} battles ${on(target)}${b.distance != null ? `, range ${b.distance}` : ''}.`];
    if (state.card) lines.push(`Command card: ${content.name(state.card)}.`);
    if (state.combat_card) lines.push(`Combat card: ${content.name(state.combat_card)}.`);
    if (b.legal) lines.push(`Ruling: roll ${b.dice} ${b.dice === 1 ? 'die' : 'dice'}.`);
    else {
      lines.push('Ruling: the battle is not allowed.');
      for (const why of b.why_not || []) lines.push(`- ${said(why)}`);
    }
    for (const [i, step] of (b.breakdown || []).entries()) {
      const n = step.dice == null ? '' : i === 0 ? String(step.dice)
        : (step.dice > 0 ? `+${step.dice}` : String(step.dice).replace('-', '−'));
      lines.push(`  ${n.padStart(3)}  ${said(step)}`);
    }
    if (b.hit_symbols?.length) lines.push(`Hits on: ${b.hit_symbols.map((f) => content.faceName(f)).join(', ')}.`);
    if (b.legal && b.probabilities?.hits) {
      lines.push(`Chance of at least one hit: ${pct(1 - b.probabilities.hits[0])}.`);
    }
    lines.push(...this.losText(b.line_of_sight, store.ui.results.los?.ok ? store.ui.results.los.data : null));
    for (const note of b.notes || []) lines.push(`Note: ${said(note)}`);
    lines.push(`Link: ${link}`);
    return lines.join('\n');
  }

  /** The line of sight, told: clear or blocked with its rule, then the crux — each hex the line
   * crosses or runs along with what stands on it, the blocking hexes, and the engine's reasons
   * (an edge blocks only when both of its hexes do: a hedgerow on one side leaves it clear). */
  losText(los, full) {
    if (!los || los.needed === false) return [];
    const {content} = this;
    const lines = [`Line of sight: ${los.clear ? 'clear' : 'blocked'} [${content.citation('line_of_sight')}].`];
    const d = full || los;
    if (d.crossed?.length) lines.push(`- The line crosses ${d.crossed.map((p) => this.hexText(p)).join(', ')}.`);
    for (const pair of d.edges || []) {
      const [a, b] = Array.isArray(pair) ? pair : [pair.a, pair.b];
      if (a && b) lines.push(`- It runs along the edge between ${this.hexText(a)} and ${this.hexText(b)}.`);
    }
    if (!d.crossed?.length && !d.edges?.length && !d.blocked_by?.length) {
      lines.push('- No hex stands between the two units.');
    }
    for (const x of d.blocked_by || []) {
      const why = x.reason_text || (x.reason ? content.name(x.reason) : '');
      const rule = x.rule ? ` [${content.citation(x.rule)}]` : '';
      lines.push(`- Blocked by ${this.hexText(x)}${why ? `: ${why}` : ''}${rule}`);
    }
    const cite = (x) => (x?.rule && x.rule !== 'line_of_sight' ? ` [${content.citation(x.rule, x.fact)}]` : '');
    for (const reason of d.reasons || []) lines.push(`- ${reason.text || ''}${cite(reason)}.`.replace(/\.\.$/, '.'));
    return lines;
  }

  /** Copy the ruling as text. The Copy button says "Copied ✓" and the message bar says what to do
   * with it (both on screen on a phone, where the ruling's body may be folded); where the browser
   * refuses the clipboard, the text opens in the ruling, selected, to copy by hand. */
  async copyRuling() {
    const out = $('#copy-out');
    const button = $('#copy-ruling');
    button.disabled = true;
    fill(out, h('p', {}, 'Preparing the text…'));
    let link = this.readonly ? location.href : null;
    if (!link) {
      const res = await postJSON(this.api.save, savedDoc(this.store.state));
      link = res.ok ? `${location.origin}${res.data.url}` : await this.shareUrl();
    }
    const text = this.rulingText(link);
    const ok = await copyText(text);
    button.disabled = false;
    const box = h('textarea', {class: 'copy-text', readonly: true, rows: 8, 'aria-label': 'The ruling as text'});
    box.value = text;
    fill(out, h('p', {class: ok ? 'good' : ''}, ok ? 'Ruling copied as text:' : 'Copy this text:'), box);
    if (ok) {
      button.textContent = 'Copied ✓';
      clearTimeout(this.copiedTimer);
      this.copiedTimer = setTimeout(() => { button.textContent = 'Copy'; }, 4000);
      message('The ruling is copied as text, with its rules cited and a short link: '
        + 'paste it into a chat or a forum post.');
    } else {
      message('The browser would not copy: the text is open in the ruling below, to copy by hand.');
      this.showRuling?.();
      box.focus();
      box.select();
    }
  }

  async save() {
    const out = $('#share-out');
    const button = $('#save');
    button.disabled = true;
    fill(out, h('p', {}, 'Saving…'));
    const res = await postJSON(this.api.save, savedDoc(this.store.state));
    button.disabled = false;
    if (!res.ok) {
      fill(out, h('p', {class: 'r-error', role: 'alert'},
        `Not saved: ${res.error.message}${res.error.field ? ` (field ${res.error.field})` : ''}`));
      return;
    }
    const url = `${location.origin}${res.data.url}`;
    const ok = await copyText(url);
    fill(out, h('p', {class: 'good'}, 'Saved. ', ok ? 'Short link copied: ' : 'Short link: ',
      h('a', {href: res.data.url, id: 'saved-link'}, res.data.url)),
    linkBox(url, 'Short link'));
  }

  /** A scenario file of the official editor, mapped by the server; what did not map is listed. */
  async importFile(event) {
    const file = event.target.files?.[0];
    const out = $('#import-out');
    if (!file) return;
    fill(out, h('p', {}, `Reading ${file.name}…`));
    let text;
    try {
      text = await file.text();
    } catch {
      fill(out, h('p', {class: 'r-error', role: 'alert'}, 'The file could not be read.'));
      return;
    }
    const res = await postJSON(this.api.import_m44, text);
    event.target.value = '';
    if (!res.ok) {
      fill(out, h('p', {class: 'r-error', role: 'alert'},
        `Not imported: ${res.error.message}${res.error.field ? ` (field ${res.error.field})` : ''}`));
      return;
    }
    const d = res.data;
    this.load({...d.situation, title: d.title || file.name.replace(/\.m44$/i, '')}, {push: true});
    const bd = this.store.board();
    const where = (x) => (x.row === null || x.row === undefined ? 'whole board' : hexLabel(bd, x));
    const units = count(d.situation.units.length, 'unit');
    const hexes = count(d.situation.hexes.length, 'terrain hex', 'terrain hexes');
    const parts = [h('p', {class: 'good', id: 'import-result'},
      `Imported ${d.title ? `“${d.title}”` : file.name}: ${units}, ${hexes} on the ${d.situation.board} board.`)];
    const sc = d.situation.scenario;
    if (sc) {
      // The scenario's medals and objectives: the score strip under the board counts them at once.
      const goal = sc.medals_to_win
        ? `${sc.medals_to_win.allies ?? '?'} medals for the Allies, ${sc.medals_to_win.axis ?? '?'} for the Axis`
        : 'the usual medal count';
      const options = sc.options?.length ? `; options: ${sc.options.map((o) => this.content.name(o)).join(', ')}` : '';
      parts.push(h('p', {id: 'import-scenario'}, `Scenario: ${goal}; `
        + `${count((sc.objectives || []).length, 'objective hex', 'objective hexes')}, `
        + `${count((sc.exits || []).length, 'exit hex', 'exit hexes')}${options}.`));
    }
    if (d.unknown.length) {
      parts.push(h('p', {class: 'warn strong'},
        `${count(d.unknown.length, 'name')} the rules content does not know (left off the board):`),
      h('table', {class: 'unknown-table', id: 'import-unknown'},
        h('thead', {}, h('tr', {}, h('th', {}, 'Hex'), h('th', {}, 'What'), h('th', {}, 'Name'))),
        h('tbody', {},
          d.unknown.map((u) => h('tr', {}, h('td', {}, where(u)), h('td', {}, u.what),
            h('td', {}, h('code', {}, u.name)))))));
    }
    if (d.skipped.length) {
      parts.push(h('p', {class: 'strong'}, 'Also left off:'),
        h('ul', {class: 'small'},
          d.skipped.map((u) => h('li', {}, `${where(u)}: ${u.what} ${u.name ? `“${u.name}”` : ''} — ${u.reason}`))));
    }
    if (d.decorative?.length) {
      // Insignia, battle stars, barges: pieces with no rules, kept apart so a real unknown stands out.
      parts.push(h('details', {id: 'import-decorative', class: 'small muted'},
        h('summary', {},
          `${count(d.decorative_total ?? d.decorative.length, 'decorative piece')} with no rules (not placed)`),
        h('ul', {}, d.decorative.map((u) => h('li', {}, `${where(u)}: ${u.what} “${u.name}” — ${u.reason}`)))));
    }
    if (d.notes.length) parts.push(h('ul', {class: 'small muted'}, d.notes.map((n) => h('li', {}, n))));
    fill(out, ...parts);
  }

  /** The example gallery: each example loads its situation (a movement example in move mode). */
  buildExamples() {
    const {store, content} = this;
    const list = $('#examples');
    if (!this.examples.length) {
      list.append(h('li', {class: 'muted'}, 'No examples yet.'));
      return;
    }
    for (const ex of this.examples) {
      list.append(h('li', {},
        h('button', {type: 'button', class: 'example', onclick: () => {
          this.load(ex.state, {push: true});
          if (ex.state.select) {
            const u = store.unitById(ex.state.select);
            if (u) { store.select(u, {keepEditing: true}); store.commit(); }
            // A movement example opens in move mode: the shading is the answer it shows.
            if (u && ex.endpoint === 'move' && !this.readonly) this.startMove(u);
          }
          message(`Loaded the example “${ex.title}”.`);
          $('#board-wrap').scrollIntoView({block: 'nearest'});
        }}, h('span', {class: 'example-title'}, ex.title)),
        ex.rule && content.ruleUrl(ex.rule) ? h('a', {class: 'example-rule', href: content.ruleUrl(ex.rule)},
          content.name(ex.rule)) : null));
    }
  }
}
