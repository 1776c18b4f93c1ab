// What is drawn over the board (builder-board.js draws it): the line of sight between attacker
// and target, the retreat options, the re-supply targets, the hex an error names, and, one at a
// time, the move shading (builder-move.js), an entered roll's outcome (builder-roll.js) or the
// selected unit's fire map (builder-firemap.js); under them, the scenario's objective and exit hexes
// (builder-score.js). It only reads the store.

import {moveOverlay, trails} from './builder-move.js';
import {situationDoc} from './builder-state.js';

export class Overlay {
  constructor({store, content, board, roll, fire, score, orders}) {
    Object.assign(this, {store, content, board, roll, fire, score, orders});
  }

  draw() {
    const {store, board, roll, fire} = this;
    const {state, ui} = store;
    const attacker = store.attacker();
    const target = store.target();
    const r = ui.results;
    const supplier = store.selectedSupplier();
    const resupply = supplier && r.resupply?.ok ? (r.resupply.data.targets || []).map((t) => {
      const u = store.unitById(t.unit);
      return u ? {hex: {row: u.row, col: u.col}, max_figures: t.max_figures} : null;
    }).filter(Boolean) : null;
    // While moving, the board shows where the unit may go; a selected unit shows its fire map; an
    // entered roll shows its outcome (its own retreat paths instead of the flags picker's).
    const moving = ui.moving && ui.move;
    const rolled = !moving ? roll.overlay(board, target) : {parts: [], retreat: null};
    const showFire = !moving && fire.unit && !rolled.retreat && !rolled.parts.length;
    // Retreats are drawn for a battle that may happen, or while one option is pointed at.
    const mayRetreat = target && r.retreat?.ok
      && (!attacker || (r.battle?.ok && r.battle.data.legal) || ui.highlight !== null);
    const selected = showFire ? store.unitById(fire.unit) : null;
    board.setOverlay({
      los: attacker && target && r.los?.ok && !moving ? r.los.data : null, from: attacker, to: target,
      retreat: moving || showFire ? null : rolled.retreat || (mayRetreat ? r.retreat.data : null),
      retreatFrom: target,
      highlight: rolled.retreat ? roll.choice ?? ui.highlight : ui.highlight, resupply, errorHex: this.errorHex(),
      under: [...this.score.overlay(board), ...trails(board, state.units),
        ...(moving ? moveOverlay(board, ui.move) : []),
        ...(showFire ? fire.sightShading(board, selected, selected && this.content.reach(selected)) : [])],
      extra: [...rolled.parts, ...(showFire ? fire.overlay(board, state) : []), ...this.orders.overlay(board)],
      tags: showFire ? fire.tags(board, state) : [],
    });
  }

  /** The hex of the unit or terrain an error's field names (`units[2]`), outlined. */
  errorHex() {
    const r = this.store.ui.results;
    const err = [r.battle, r.los, r.retreat, r.resupply].find((x) => x && !x.ok && x.error?.field)?.error;
    if (!err) return null;
    const m = /^(units|hexes)\[(\d+)\]/.exec(err.field);
    const doc = situationDoc(this.store.state);
    const item = m ? doc[m[1]][Number(m[2])] : null;
    return item ? {row: item.row, col: item.col} : null;
  }
}
