// The fire map: a selected unit draws whom it can battle and with how many dice, and
// which enemies can battle it, from POST /api/v1/fire-map (each pair ruled exactly as /battle
// rules it). Pairs that may not battle are drawn faint; the unit's sheet lists every pair with
// the reason and its rule, and a button to make it the battle shown. Under the rings, a light wash
// shades every hex the unit has a clear line of sight to (`in_sight`, from the engine's one
// sight_map sweep), so "can it even see there?" is answered before any unit stands there.

import {postJSON} from './builder-api.js';
import {h, s} from './builder-dom.js';
import {playFields, rulingDoc} from './builder-state.js';

export class FireMap {
  constructor(api, onChange) {
    this.api = api;
    this.onChange = onChange;
    this.key = null;
    this.unit = null;
    this.answer = null;
    this.controller = null;
  }

  /** Ask again when the selected unit or the situation changed; `unit` null clears the map. */
  update(state, unit) {
    if (!unit) {
      if (this.unit) { this.unit = null; this.answer = null; this.key = null; this.controller?.abort(); }
      return;
    }
    const body = {...rulingDoc(state), unit: unit.id};
    if (state.card) Object.assign(body, {card: state.card, ...playFields(state)});
    if (state.card && state.play?.side) body.side = state.play.side; // the other side's fire is ruled without it
    if (state.combat_card) body.combat_card = state.combat_card;
    const k = JSON.stringify(body);
    if (k === this.key) return;
    this.key = k;
    this.unit = unit.id;
    this.answer = null;
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    setTimeout(async () => {
      if (controller.signal.aborted) return;
      const res = await postJSON(this.api, body, controller.signal);
      if (controller.signal.aborted || res.aborted) return;
      this.answer = res;
      this.onChange();
    }, 150);
  }

  /** The pairs of the selected unit: those it battles (out) and those that battle it (in). */
  pairs() {
    const d = this.answer?.ok ? this.answer.data : null;
    if (!d || !this.unit) return null;
    return {
      out: d.battles.filter((b) => b.attacker === this.unit),
      in: d.battles.filter((b) => b.target === this.unit),
      data: d,
    };
  }

  /** The light wash on every hex the selected unit sees (line of sight clear), drawn under the rest. */
  sightShading(board) {
    const p = this.pairs();
    if (!p) return [];
    return (p.data.in_sight || []).map((x) => {
      const shape = board.hexShape(x, 'fire-sight', 0.97);
      shape.dataset.row = x.row;
      shape.dataset.col = x.col;
      return shape;
    });
  }

  /** Rings and dice counts on the board: "→3" the selected unit battles this one with 3 dice,
   * "3→" this one battles the selected unit with 3 dice; faint when the battle is not allowed. */
  overlay(board, state) {
    const p = this.pairs();
    if (!p) return [];
    const parts = [];
    const at = (id) => state.units.find((u) => u.id === id);
    for (const b of p.out) {
      const u = at(b.target);
      if (!u) continue;
      parts.push(board.hexShape(u, b.legal ? 'fire-out' : 'fire-out no', 0.78));
      const [x, y] = board.centre(u);
      if (b.legal) parts.push(s('text',
        {class: 'fire-text out', x: x + 18, y: y + 23, 'text-anchor': 'middle', 'dominant-baseline': 'central'},
        `→${b.dice}`));
    }
    for (const b of p.in) {
      const u = at(b.attacker);
      if (!u) continue;
      parts.push(board.hexShape(u, b.legal ? 'fire-in' : 'fire-in no', 0.68));
      const [x, y] = board.centre(u);
      if (b.legal) parts.push(s('text',
        {class: 'fire-text in', x: x - 18, y: y + 23, 'text-anchor': 'middle', 'dominant-baseline': 'central'},
        `${b.dice}→`));
    }
    return parts;
  }

  /** The list in the unit's sheet: every pair, why not where it may not, and a way to show it. */
  sheet({state, content, label, onPick}) {
    if (!this.unit) return null;
    if (!this.answer) return h('p', {class: 'r-note fire-list', id: 'fire-map'}, 'Working out who it can hit…');
    if (!this.answer.ok) return h('p', {class: 'r-error fire-list', id: 'fire-map'},
      `Fire map: ${this.answer.error.message}`);
    const p = this.pairs();
    const unitOf = (id) => state.units.find((u) => u.id === id);
    const row = (b, other, dir) => {
      const u = unitOf(other);
      const name = u ? `${label(u)} ${content.sideName(u.side)} ${content.unitName(u)}` : other;
      const why = b.why_not?.[0];
      const cite = why?.rule && content.ruleUrl(why.rule) ? [' ',
        h('a', {href: content.ruleUrl(why.rule), class: 'rule-link'}, content.name(why.rule))] : null;
      return h('li', {class: b.legal ? 'fire-ok' : 'fire-no'},
        h('button', {type: 'button', class: 'fire-pick', 'data-fk': `fire-${dir}-${other}`,
          'aria-label': `Show the battle ${dir === 'out' ? 'against' : 'from'} ${name}`, onclick: () => onPick(b)},
        h('span', {class: 'fire-name'}, name),
        h('span', {class: 'fire-dice'}, b.legal ? `${b.dice} ${b.dice === 1 ? 'die' : 'dice'}` : 'no')),
        !b.legal && why ? h('span', {class: 'fire-why small'}, typeof why === 'string' ? why : why.text, cite) : null);
    };
    const list = (title, items, dir) => [h('p', {class: 'fire-h'}, title),
      items.length
        ? h('ul', {class: 'fire-pairs'}, items.map((b) => row(b, dir === 'out' ? b.target : b.attacker, dir)))
        : h('p', {class: 'muted small'}, 'No enemy within reach.')];
    const seen = p.data.in_sight;
    return h('div', {class: 'fire-list', id: 'fire-map'},
      seen ? h('p', {class: 'fire-sight-count small', id: 'fire-sight-count'},
        h('span', {class: 'lg-hex lg-sight', 'aria-hidden': 'true'}), ' ',
        `It has a clear line of sight to ${seen.length} hex${seen.length === 1 ? '' : 'es'} (shaded on the board).`)
        : null,
      list('It can battle', p.out, 'out'), list('Who can battle it', p.in, 'in'),
      p.data.beyond_range ? h('p', {class: 'muted small'},
        `${p.data.beyond_range} more pair${p.data.beyond_range === 1 ? ' is' : 's are'} out of range.`) : null,
      p.data.truncated ? h('p', {class: 'muted small'}, 'The board has too many pairs to list them all.') : null);
  }
}
