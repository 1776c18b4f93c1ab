// The ruling box: the whole ruling (builder-results.js) with the Roll tab (builder-roll-tab.js)
// as tabs, so only the chosen part shows and the board stays on screen, and the one-line ruling
// that stays in view (tapping it unfolds the box on a phone). The line names both units and the
// direction ("Infantry F3 → Armor F5"); under it the other direction is shown at a glance with its
// dice, and a tap on it swaps attacker and target. It reads the store's last answers
// (builder-requests.js asks for them).

import {$, fill, h, pct} from './builder-dom.js';
import {hexLabel, renderRuling} from './builder-results.js';
import {bringIntoView, withFocusKept} from './builder-view.js';
import {startingText} from './offline-engine.js';

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
    $('#b-swap').addEventListener('click', () => {
      store.swapRoles();
      store.commit();
    });
    $('#b-roll').addEventListener('click', () => rollTab.open());
    // A cold start of the engine on this device takes seconds: its progress shows on the line.
    window.addEventListener('engine-progress', () => this.renderSummary());
  }

  /** "Infantry F3": a unit as the ruling line names it. */
  short(unit) {
    return `${this.content.unitName(unit)} ${hexLabel(this.store.board(), unit)}`;
  }

  render() {
    this.renderBody();
    this.redraw.overlay();
    this.renderSummary();
  }

  /** The whole ruling under the line: its parts, the Roll tab, the tabs (without what it draws on
   * the board: redraw.overlay). */
  renderBody() {
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
    // While a battle's ruling is on its way the tab row keeps its room (empty), so the verdict
    // under it does not move when the tabs come.
    const awaited = !tabs.length && store.attacker() && store.target() && store.ui.pending;
    list.hidden = !tabs.length && !awaited;
    list.classList.toggle('awaited', Boolean(awaited));
    fill(list, tabs.map(([id, label]) => h('button', {
      type: 'button', role: 'tab', class: 'r-tab', id: `tab-${id}`, 'data-fk': `tab-${id}`,
      'aria-selected': current === id ? 'true' : 'false',
      'aria-controls': 'ruling', tabindex: current === id ? '0' : '-1',
      onclick: () => {
        store.setTab(id);
        withFocusKept(() => this.renderTabs(ruling));
        this.renderActions();
        if (id === 'roll') bringIntoView($('.roll-faces'));
      },
      onkeydown: (e) => {
        const i = tabs.findIndex(([x]) => x === id);
        const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
        if (!step) return;
        e.preventDefault();
        store.setTab(tabs[(i + step + tabs.length) % tabs.length][0]);
        this.renderTabs(ruling);
        this.renderActions();
        $(`#tab-${store.ui.tab}`).focus();
      },
    }, label)));
  }

  /** The one-line ruling that stays on screen: who battles whom, then legal or why not · dice ·
   * line of sight · hit faces · chance of at least one hit. Tapping it opens the whole ruling (on
   * a phone). */
  summaryText() {
    const {store, content} = this;
    const {state, ui} = store;
    const b = ui.results.battle;
    const attacker = store.attacker();
    const target = store.target();
    const sides = new Set(state.units.map((u) => u.side));
    if (!state.units.length) return {cls: '', text: 'Tap a hex to place a unit: two of opposite sides make a battle.'};
    if (!attacker || !target) {
      let text = 'Place a unit of the other side to see the battle.';
      if (sides.size > 1) {
        text = target ? 'Pick an attacker: tap a unit, then Attacker.'
          : attacker ? 'Pick a target: tap an enemy unit, then Target.'
            : 'Tap a unit, then Attacker: it battles the nearest enemy it can.';
      }
      return {cls: '', text};
    }
    const alone = store.cardAttacksAlone();
    const dir = `${alone ? content.name(state.card) : this.short(attacker)} → ${this.short(target)}`;
    if (ui.pending && !b) return {cls: 'pending', dir, text: startingText() || 'Working it out…'};
    if (!b) return {cls: '', dir, text: ''};
    if (!b.ok) {
      if (b.status === 0 || !navigator.onLine) return {cls: 'error', dir, text: '⚠ Offline: rulings need the network.'};
      return {cls: 'error', dir, text: `⚠ ${b.error.message}`};
    }
    const d = b.data;
    const los = d.line_of_sight;
    const bits = [];
    if (d.legal) {
      bits.push(`✔ ${d.dice} ${d.dice === 1 ? 'die' : 'dice'}`);
      if (los?.needed !== false) bits.push(los?.clear ? 'LOS clear' : 'no LOS');
      const hits = (d.hit_symbols || []).map((f) => content.faceName(f).toLowerCase());
      if (hits.length) bits.push(`hits: ${hits.join(', ')}`);
      if (d.probabilities?.hits) bits.push(`${pct(1 - d.probabilities.hits[0])} ≥1 hit`);
    } else {
      const why = d.why_not?.[0];
      bits.push(`✖ Not allowed${why ? `: ${typeof why === 'string' ? why : why.text || ''}` : ''}`);
      if (los?.needed !== false) bits.push(los?.clear ? 'LOS clear' : 'no LOS');
    }
    const stale = ui.pending && !ui.partial; // the last situation's answer, while the new one comes
    return {cls: `${d.legal ? 'legal' : 'illegal'}${stale ? ' pending' : ''}`, dir, text: bits.join(' · ')};
  }

  renderSummary() {
    const {ui} = this.store;
    const el = $('#b-summary');
    const {cls, dir, text} = this.summaryText();
    el.className = `b-summary ${cls}`;
    const open = this.wide.matches || ui.expanded;
    el.setAttribute('aria-expanded', open ? 'true' : 'false');
    const said = dir ? `${dir}: ${text}` : text;
    el.title = said.replace('LOS', 'line of sight');
    // The same live text node each time, so a screen reader hears each new ruling once.
    const line = $('.b-summary-text', el)
      || el.appendChild(h('span', {class: 'b-summary-text', 'aria-live': 'polite'}));
    if (line.dataset.said !== said) {
      line.dataset.said = said;
      fill(line, dir ? [h('span', {class: 'b-summary-dir'}, dir), ' '] : null,
        h('span', {class: 'b-summary-verdict'}, text));
    }
    const more = $('.b-summary-more', el)
      || el.appendChild(h('span', {class: 'b-summary-more', 'aria-hidden': 'true'}));
    more.hidden = this.wide.matches;
    more.textContent = ui.expanded ? '▾' : '▴';
    $('#ruling-box').classList.toggle('expanded', open);
    document.body.classList.toggle('ruling-open', ui.expanded && !this.wide.matches);
    // Kept in place while there is nothing to copy (hidden, not removed), so the line never reflows.
    $('#copy-ruling').style.visibility = ui.results.battle?.ok ? '' : 'hidden';
    this.renderActions();
  }

  /** Under the line: the other direction at a glance ("⇄ Armor F5 → Infantry F3: 2 dice", a tap
   * swaps them) and "Enter roll" once the battle may be rolled. */
  renderActions() {
    const {store} = this;
    const b = store.ui.results.battle;
    const roll = $('#b-roll');
    const rolling = store.ui.tab === 'roll' && (store.ui.expanded || this.wide.matches);
    roll.hidden = rolling || !this.rollTab.mayRoll(store.attacker(), store.target());
    const swap = this.renderSwap();
    $('#b-actions').hidden = roll.hidden && !swap;
    this.releaseRoom();
    roll.classList.toggle('secondary', !(b?.ok && b.data.legal));
  }

  /** The page's room for the actions while its first ruling came (templates/builder.html): given
   * up when they show (they take its place), else at the player's next touch or key, so the line
   * does not move by itself (a change right after an input is no layout shift). */
  releaseRoom() {
    const room = $('.b-actions-room');
    if (!room) return;
    if (!$('#b-actions').hidden) {
      room.remove();
    } else if (!('held' in room.dataset)) {
      room.dataset.held = '';
      const release = () => room.remove();
      window.addEventListener('pointerdown', release, {once: true, capture: true});
      window.addEventListener('keydown', release, {once: true, capture: true});
    }
  }

  /** The swap button; false when there is no other direction to show. */
  renderSwap() {
    const {store} = this;
    const button = $('#b-swap');
    const attacker = store.attacker();
    const target = store.target();
    if (!attacker || !target || store.cardAttacksAlone() || this.store.state.overrun_battle) {
      button.hidden = true;
      return false;
    }
    const r = store.ui.results.reverse;
    let verdict = '';
    if (r?.ok) verdict = r.data.legal ? `${r.data.dice} ${r.data.dice === 1 ? 'die' : 'dice'}` : 'not allowed';
    const dir = `${this.short(target)} → ${this.short(attacker)}`;
    const said = `${dir}${verdict ? `: ${verdict}` : ''}`;
    button.hidden = false;
    if (button.dataset.said === said) return true;
    button.dataset.said = said;
    fill(button, h('span', {class: 'b-swap-icon', 'aria-hidden': 'true'}, '⇄'),
      h('span', {class: 'visually-hidden'}, 'Swap: '), h('span', {class: 'b-swap-dir'}, dir),
      verdict ? h('span', {class: 'muted'}, `: ${verdict}`) : null);
    return true;
  }
}
