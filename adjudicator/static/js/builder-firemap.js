// The fire map: a selected unit draws whom it can battle and with how many dice, and
// which enemies can battle it, from POST /api/v1/fire-map (each pair ruled exactly as /battle
// rules it). Each enemy it can battle gets a ring and a "3 dice" tag; each that can battle it a
// dashed ring and a "2 back" tag (the tags drawn above the words of the board, never under a
// hex label). Pairs that may not battle are drawn faint; the unit's sheet lists every pair with
// the reason and its rule, and a button to make it the battle shown. A light wash shades the
// hexes within the unit's range it has a clear line of sight to (`in_sight`, from the engine's
// one sight_map sweep), so "can it even see there?" is answered before any unit stands there,
// without washing the whole board.

import {LatestRequest} from './builder-api.js';
import {h, s} from './builder-dom.js';
import {hexDistance, playFields, rulingDoc} from './builder-state.js';

export class FireMap {
  constructor(api, onChange) {
    this.request = new LatestRequest(api);
    this.onChange = onChange;
    this.unit = null;
    this.answer = null;
  }

  /** Ask again when the selected unit or the situation changed; `unit` null clears the map. */
  update(state, unit) {
    if (!unit) {
      if (this.unit) { this.unit = null; this.answer = null; this.request.clear(); }
      return;
    }
    const body = {...rulingDoc(state), unit: unit.id};
    if (state.card) Object.assign(body, {card: state.card, ...playFields(state)});
    if (state.card && state.play?.side) body.side = state.play.side; // the other side's fire is ruled without it
    if (state.combat_card) body.combat_card = state.combat_card;
    if (!this.request.ask(body, (answer) => { this.answer = answer; this.onChange(); })) return;
    this.unit = unit.id;
    this.answer = null;
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

  /** The enemies unit `id` can battle (`role` attacker) or that can battle it (target), from its
   * map: the choice a free role is given to (builder-store.js); null before the answer. */
  rivals(id, role) {
    const p = this.pairs();
    if (!p || this.unit !== id) return null;
    return role === 'attacker' ? p.out.filter((b) => b.legal).map((b) => b.target)
      : p.in.filter((b) => b.legal).map((b) => b.attacker);
  }

  /** The light wash on the hexes within the unit's range that it sees (line of sight clear),
   * drawn under the rest. */
  sightShading(board, unit, reach) {
    const p = this.pairs();
    if (!p || !unit) return [];
    return (p.data.in_sight || []).filter((x) => !reach || hexDistance(unit, x) <= reach).map((x) => {
      const shape = board.hexShape(x, 'fire-sight', 0.97);
      shape.dataset.row = x.row;
      shape.dataset.col = x.col;
      return shape;
    });
  }

  /** The selected unit's pairs (null: no map) and a finder of the units they name. */
  pairsOn(state) {
    return {p: this.pairs(), at: (id) => state.units.find((u) => u.id === id)};
  }

  /** Rings on the board (under the words), faint when the battle is not allowed. */
  overlay(board, state) {
    const {p, at} = this.pairsOn(state);
    if (!p) return [];
    const parts = [];
    for (const b of p.out) {
      const u = at(b.target);
      if (u) parts.push(board.hexShape(u, b.legal ? 'fire-out' : 'fire-out no', 0.78));
    }
    for (const b of p.in) {
      const u = at(b.attacker);
      if (u) parts.push(board.hexShape(u, b.legal ? 'fire-in' : 'fire-in no', 0.68));
    }
    return parts;
  }

  /** The tags, drawn above the words: "3 dice" at the foot of each enemy the unit can battle, "2
   * back" at the head of each that can battle it. */
  tags(board, state) {
    const {p, at} = this.pairsOn(state);
    if (!p) return [];
    const parts = [];
    const tag = (u, cls, y, text) => {
      const [x, cy] = board.centre(u);
      const width = text.length * 7.6 + 6;
      return s('g', {class: `fire-tag ${cls}`, transform: `translate(${x.toFixed(1)} ${(cy + y).toFixed(1)})`},
        s('rect', {x: -width / 2, y: -7.5, width, height: 15, rx: 7.5}),
        s('text', {class: 'fire-text', y: 0.5, 'text-anchor': 'middle', 'dominant-baseline': 'central'}, text));
    };
    for (const b of p.out) {
      const u = at(b.target);
      if (u && b.legal) parts.push(tag(u, 'out', 21.5, `${b.dice} ${b.dice === 1 ? 'die' : 'dice'}`));
    }
    for (const b of p.in) {
      const u = at(b.attacker);
      if (u && b.legal) parts.push(tag(u, 'in', -21.5, `${b.dice} back`));
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
      const name = u ? `${label(u)} ${content.sideName(u.side)} ${content.unitName(u)}` : 'a unit no longer there';
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
    // The hexes the board shades: those it sees within its range (as sightShading draws them).
    const unit = unitOf(this.unit);
    const reach = unit ? content.reach(unit) : 0;
    const seen = p.data.in_sight && p.data.in_sight.filter((x) => !reach || hexDistance(unit, x) <= reach);
    return h('div', {class: 'fire-list', id: 'fire-map'},
      seen ? h('p', {class: 'fire-sight-count small', id: 'fire-sight-count'},
        h('span', {class: 'lg-hex lg-sight', 'aria-hidden': 'true'}), ' ',
        `It has a clear line of sight to ${seen.length} hex${seen.length === 1 ? '' : 'es'}`
        + `${reach ? ' within its range' : ''} (shaded on the board).`)
        : null,
      list('It can battle', p.out, 'out'), list('Who can battle it', p.in, 'in'),
      p.data.beyond_range ? h('p', {class: 'muted small'},
        `${p.data.beyond_range} more pair${p.data.beyond_range === 1 ? ' is' : 's are'} out of range.`) : null,
      p.data.truncated ? h('p', {class: 'muted small'}, 'The board has too many pairs to list them all.') : null);
  }
}
