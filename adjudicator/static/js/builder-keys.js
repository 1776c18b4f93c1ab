// Keyboard shortcuts on a hex of the board, so the standard dispute takes a handful of key
// presses: digits place the common units (1 infantry, 2 armor, 3 artillery: the bottom player's;
// with Shift the other side's), a letter lays or lifts a common terrain or obstacle (its first
// free letter: F forest, H hill, T towns…), Delete empties the hex. Arrows move between hexes
// and Enter opens all the hex's choices (builder-board.js). The sheet's buttons show their key.

import {message} from './builder-view.js';

const otherSide = (side) => (side === 'allies' ? 'axis' : 'allies');

export class Keys {
  constructor({store, content, board, readonly}) {
    Object.assign(this, {store, content, board, readonly});
    this.letters = new Map(); // letter -> {kind: 'terrain' | 'obstacle', id}
    this.byId = new Map(); // terrain or obstacle id -> its letter
    const common = content.p.common;
    for (const [kind, ids] of [['terrain', common.terrain], ['obstacle', common.obstacles]]) {
      for (const id of ids) {
        const letter = [...content.name(id).toLowerCase()].find((ch) => /[a-z]/.test(ch) && !this.letters.has(ch));
        if (!letter) continue;
        this.letters.set(letter, {kind, id});
        this.byId.set(id, letter);
      }
    }
  }

  /** The key of a unit choice ({aria, label}), or null: digits for the common units. */
  unitKey(side, type) {
    const i = this.content.p.common.units.indexOf(type);
    if (i < 0 || i > 8) return null;
    const key = side === this.store.state.bottom_side ? `${i + 1}` : `Shift+${i + 1}`;
    return {aria: key, label: key};
  }

  /** The key of a terrain or obstacle choice, or null. */
  featureKey(id) {
    const letter = this.byId.get(id);
    return letter ? {aria: letter.toUpperCase(), label: letter.toUpperCase()} : null;
  }

  /** The keys in one line, for the hint under the board while it has the focus. */
  help() {
    const {content, store} = this;
    const units = content.p.common.units.slice(0, 9).map((t, i) => `${i + 1} ${content.name(t).toLowerCase()}`);
    const features = [...this.letters].slice(0, 4).map(([k, {id}]) => `${k.toUpperCase()} ${content.name(id)}`);
    return `Keys: ${units.join(', ')} (${content.sideName(store.state.bottom_side)}; Shift: `
      + `${content.sideName(otherSide(store.state.bottom_side))}) · ${features.join(', ')}… · Delete empties · `
      + 'Enter: every choice · arrows move.';
  }

  /** A key pressed on the hex (row, col): true when it was a shortcut (and acted). */
  onHex(row, col, event) {
    if (this.readonly || event.ctrlKey || event.metaKey || event.altKey || this.store.ui.moving) return false;
    const {store, content} = this;
    const unit = store.unitAt(row, col);
    const label = this.board.cells.get(`${row},${col}`)?.hex.label || '';
    const digit = /^(?:Digit|Numpad)([1-9])$/.exec(event.code || '');
    if (digit) {
      const type = content.p.common.units[Number(digit[1]) - 1];
      if (!type) return false;
      const side = event.shiftKey ? otherSide(store.state.bottom_side) : store.state.bottom_side;
      if (unit) store.retype(unit, side, type);
      else store.placeUnit(row, col, side, type);
      store.commit();
      message(`${content.sideName(side)} ${content.name(type)} on ${label}.`);
      return true;
    }
    if (event.key === 'Delete' || event.key === 'Backspace') {
      store.clearHex(row, col);
      store.commit();
      message(`${label} emptied.`);
      return true;
    }
    const hit = event.key?.length === 1 && !event.shiftKey ? this.letters.get(event.key.toLowerCase()) : null;
    if (!hit) return false;
    let on = false;
    store.setCell(row, col, (c) => {
      if (hit.kind === 'terrain') { c.terrain = c.terrain === hit.id ? null : hit.id; on = Boolean(c.terrain); } else {
        c.obstacle = c.obstacle === hit.id ? null : hit.id;
        on = Boolean(c.obstacle);
        if (!on) c.owner = null;
      }
    });
    store.commit();
    message(`${content.name(hit.id)} ${on ? 'laid on' : 'lifted from'} ${label}.`);
    return true;
  }
}
