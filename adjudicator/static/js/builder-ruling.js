// The ruling box: the whole ruling (builder-results.js) with the Roll tab (builder-roll-tab.js)
// as tabs, so only the chosen part shows and the board stays on screen, and the one-line ruling
// that stays in view (tapping it unfolds the box on a phone). It reads the store's last answers
// (builder-requests.js asks for them).

import {$, fill, h, pct} from './builder-dom.js';
import {renderRuling} from './builder-results.js';
import {withFocusKept} from './builder-view.js';

const TABS = [['dice', 'Dice'], ['roll', 'Roll'], ['los', 'Line of sight'], ['retreat', 'Retreat'], ['odds', 'Odds'],
  ['after', 'After the battle']];

export class Ruling {
  /** `redraw`: the controller's {all, sheet, ruling, overlay}. */
  constructor({store, content, wide, rollTab, redraw}) {
    Object.assign(this, {store, content, wide, rollTab, redraw});
    $('#b-summary').addEventListener('click', () => {
      if (wide.matches) return;
      store.setExpanded(!store.ui.expanded); // the sheet folds away meanwhile (the hex stays selected)
      redraw.all();
    });
  }

  render() {
    const {store, redraw} = this;
    const attacker = store.attacker();
    const target = store.target();
    const ruling = $('#ruling');
    renderRuling(ruling, {
      r: store.ui.results, state: store.state, content: this.content, board: store.board(), attacker, target,
      supplier: store.selectedSupplier(), pending: store.ui.pending,
      onFlags: (n) => { store.setFlags(n); store.commit(); },
      onHighlight: (i) => { store.setHighlight(i); redraw.overlay(); },
    });
    this.rollTab.render(ruling, attacker, target);
    this.renderTabs(ruling);
    redraw.overlay();
    this.renderSummary();
  }

  /** The ruling's parts as tabs: only the chosen part shows, so the board stays on screen. */
  renderTabs(ruling) {
    const {store} = this;
    const present = new Set([...ruling.querySelectorAll('.r-section[data-tab]')].map((el) => el.dataset.tab));
    const tabs = TABS.filter(([id]) => present.has(id));
    if (tabs.length && !present.has(store.ui.tab)) store.setTab(tabs[0][0]);
    const current = store.ui.tab;
    ruling.dataset.tab = tabs.length ? current : '';
    const list = $('#ruling-tabs');
    list.hidden = !tabs.length;
    fill(list, tabs.map(([id, label]) => h('button', {
      type: 'button', role: 'tab', class: 'r-tab', id: `tab-${id}`, 'data-fk': `tab-${id}`,
      'aria-selected': current === id ? 'true' : 'false',
      'aria-controls': 'ruling', tabindex: current === id ? '0' : '-1',
      onclick: () => { store.setTab(id); withFocusKept(() => this.renderTabs(ruling)); },
      onkeydown: (e) => {
        const i = tabs.findIndex(([x]) => x === id);
        const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
        if (!step) return;
        e.preventDefault();
        store.setTab(tabs[(i + step + tabs.length) % tabs.length][0]);
        this.renderTabs(ruling);
        $(`#tab-${store.ui.tab}`).focus();
      },
    }, label)));
  }

  /** The one-line ruling that stays on screen: legal or why not · dice · hit faces · chance of at
   * least one hit · line of sight. Tapping it opens the whole ruling (on a phone). */
  summaryText() {
    const {store, content} = this;
    const {state, ui} = store;
    const b = ui.results.battle;
    const attacker = store.attacker();
    const target = store.target();
    if (!state.units.length) return {cls: '', text: 'Tap a hex to place a unit: two of opposite sides make a battle.'};
    if (!attacker || !target) {
      const text = target ? 'Pick an attacker: tap a unit, then Attacker.'
        : 'Place a unit of the other side to see the battle.';
      return {cls: '', text};
    }
    if (ui.pending && !b) return {cls: 'pending', text: 'Working it out…'};
    if (!b) return {cls: '', text: ''};
    if (!b.ok) {
      if (b.status === 0 || !navigator.onLine) return {cls: 'error', text: '⚠ Offline: rulings need the network.'};
      return {cls: 'error', text: `⚠ ${b.error.message}`};
    }
    const d = b.data;
    const los = d.line_of_sight;
    const bits = [];
    if (d.legal) {
      bits.push(`✔ ${d.dice} ${d.dice === 1 ? 'die' : 'dice'}`);
      const hits = (d.hit_symbols || []).map((f) => content.name(f).toLowerCase());
      if (hits.length) bits.push(`hits: ${hits.join(', ')}`);
      if (d.probabilities?.hits) bits.push(`${pct(1 - d.probabilities.hits[0])} ≥1 hit`);
    } else {
      const why = d.why_not?.[0];
      bits.push(`✖ Not allowed${why ? `: ${typeof why === 'string' ? why : why.text || ''}` : ''}`);
    }
    if (los?.needed !== false) bits.push(los?.clear ? 'LOS clear' : 'no LOS');
    return {cls: `${d.legal ? 'legal' : 'illegal'}${ui.pending ? ' pending' : ''}`, text: bits.join(' · ')};
  }

  renderSummary() {
    const {ui} = this.store;
    const el = $('#b-summary');
    const {cls, text} = this.summaryText();
    el.className = `b-summary ${cls}`;
    const open = this.wide.matches || ui.expanded;
    el.setAttribute('aria-expanded', open ? 'true' : 'false');
    el.title = text.replace('LOS', 'line of sight');
    // The same live text node each time, so a screen reader hears each new ruling once.
    const line = $('.b-summary-text', el)
      || el.appendChild(h('span', {class: 'b-summary-text', 'aria-live': 'polite'}));
    if (line.textContent !== text) line.textContent = text;
    const more = $('.b-summary-more', el)
      || el.appendChild(h('span', {class: 'b-summary-more', 'aria-hidden': 'true'}));
    more.hidden = this.wide.matches;
    more.textContent = ui.expanded ? '▾' : '▴';
    $('#ruling-box').classList.toggle('expanded', open);
    document.body.classList.toggle('ruling-open', ui.expanded && !this.wide.matches);
    $('#copy-ruling').hidden = !(ui.results.battle?.ok);
  }
}
