// The Roll tab of the ruling and what it does to the board. After a legal ruling the verdict
// offers "Enter the roll" (the faces, sent to /resolve: builder-roll.js); the outcome applied
// changes the board (figures lost, the retreat), then take ground and the armor overrun are
// offered, each a change to the store.

import {$, h} from './builder-dom.js';
import {hexLabel} from './builder-results.js';
import {message} from './builder-view.js';

/** Hexes between two units, as the overrun picks the nearest enemy. */
const distance = (p, q) => {
  const dr = Math.abs(p.row - q.row);
  const dc = Math.abs(p.col - q.col);
  return dr + Math.max(0, (dc - dr) / 2);
};

export class RollTab {
  /** `roll`: the Roll of builder-roll.js; `redraw`: the controller's {all, sheet, ruling, overlay};
   * `syncControls()` sets the page's controls from the situation. */
  constructor({store, content, roll, readonly, redraw, syncControls}) {
    Object.assign(this, {store, content, roll, readonly, redraw, syncControls});
  }

  /** Add the "Enter the roll" button to the verdict and the Roll tab to the ruling, when a legal
   * battle may be rolled or an applied outcome still offers take ground or an overrun. */
  render(ruling, attacker, target) {
    const {store, content, roll, redraw} = this;
    const {ui} = store;
    const b = ui.results.battle;
    roll.sync(store.state);
    const legal = !this.readonly && attacker && target && b?.ok && b.data.legal && b.data.dice > 0 && !ui.pending;
    const bd = store.board();
    const label = (p) => hexLabel(bd, p);
    if (!legal && !roll.after) return;
    const onTakeGround = () => this.takeGround();
    const onOverrun = () => this.overrun();
    if (legal) {
      $('#verdict', ruling)?.append(h('button', {type: 'button', class: 'button roll-open', 'data-fk': 'enter-roll',
        onclick: () => {
          store.setTab('roll');
          store.setExpanded(true);
          redraw.all();
          $('#tab-roll')?.focus();
        }}, 'Enter the roll'));
    }
    const section = legal ? roll.section({state: store.state, content, battle: b.data, target, label,
      onHighlight: (i) => { store.setHighlight(i); redraw.overlay(); },
      onApply: (o) => this.apply(attacker, target, o),
      onTakeGround,
      onOverrun,
    }) : h('section', {class: 'r-section roll', 'data-tab': 'roll'}, h('h3', {}, 'After the battle'),
      roll.afterParts({content, label, onTakeGround, onOverrun}));
    ruling.append(section);
  }

  /** The outcome entered, applied: the target loses its figures, retreats or is removed; take
   * ground and the overrun are offered when the hex is vacated and the ruling allows them. */
  apply(attacker, target, o) {
    const {store, roll} = this;
    const d = roll.answer.data;
    const hex = {row: target.row, col: target.col};
    store.applyLoss(target, o);
    const takeGround = o.vacated && (d.take_ground_if_vacated || d.take_ground);
    const overrunOk = o.vacated && (d.overrun_if_vacated || d.overrun);
    roll.after = takeGround ? {
      attacker: attacker.id, hex, takeGround: true, overrun: overrunOk,
      rule: overrunOk ? 'armor_overrun' : 'take_ground',
      text: (overrunOk ? d.advance?.overrun_reasons?.[0]?.text : d.advance?.take_ground_reasons?.[0]?.text) || '',
    } : null;
    store.setHighlight(null);
    store.setTab('roll');
    const lost = `The target lost ${o.lost} figure${o.lost === 1 ? '' : 's'}${o.vacated ? ' and retreated' : ''}.`;
    message(o.eliminated ? 'The target is eliminated.' : lost);
    store.commit({push: true});
  }

  takeGround() {
    const {store, roll} = this;
    const a = roll.after;
    const attacker = store.unitById(a?.attacker);
    if (!attacker || store.unitAt(a.hex.row, a.hex.col)) { roll.after = null; return store.commit(); }
    store.standOn(attacker, a.hex); // taking ground is not part of the move
    roll.after = a.overrun ? {...a, takeGround: false} : null;
    store.select(null, {keepEditing: true});
    message(`The attacker took ground on ${hexLabel(store.board(), a.hex)}.`);
    return store.commit({push: true});
  }

  /** The overrun battle: the same armor battles again, an enemy next to it first. */
  overrun() {
    const {store, roll} = this;
    const a = roll.after;
    const attacker = store.unitById(a?.attacker);
    roll.after = null;
    if (!attacker) return store.commit();
    const enemies = store.state.units.filter((u) => u.side !== attacker.side)
      .sort((p, q) => distance(attacker, p) - distance(attacker, q));
    store.setBattle(attacker.id, enemies[0]?.id || null, {overrun: true});
    this.syncControls();
    store.setTab('dice');
    message('Armor overrun: the ruling is now the overrun battle (no second overrun follows).');
    return store.commit({push: true});
  }
}
