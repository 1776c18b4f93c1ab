// Enter the roll: after a legal ruling the player taps the faces the dice showed (one
// big button per face, counts shown, undo), and when they add up to the battle's dice the roll
// goes to POST /api/v1/resolve. The outcome is told step by step (each step links its rule) and
// drawn on the board (figures lost, retreat paths); it then chains into the retreat choice and,
// once applied to the board, into take ground and the armor overrun.

import {postJSON} from './builder-api.js';
import {h, s} from './builder-dom.js';
import {faceIcon} from './builder-results.js';
import {playFields, rulingDoc} from './builder-state.js';
import {bringIntoView} from './builder-view.js';

export const FACES = ['infantry', 'armor', 'grenade', 'star', 'flag'];

/** The /battle fields of the current selection, the base of the /resolve request. A card that
 * attacks by itself (Air Power, Barrage: ``attacksAlone``) is sent with no attacker. */
export function battleBody(state, attacksAlone = false) {
  const body = {...rulingDoc(state), attacker: attacksAlone ? null : state.attacker, target: state.target};
  if (state.card) Object.assign(body, {card: state.card, ...playFields(state)});
  if (state.combat_card) body.combat_card = state.combat_card;
  if (state.overrun_battle) body.overrun_battle = true;
  return body;
}

export class Roll {
  constructor(api, onChange, attacksAlone = () => false) {
    this.api = api;
    this.onChange = onChange;
    this.attacksAlone = attacksAlone;  // (state) => whether the chosen card attacks with no unit
    this.key = null;
    this.reset();
    this.after = null;  // take ground / overrun offered once an outcome is applied
  }

  reset() {
    this.order = [];
    this.answer = null;
    this.pending = false;
    this.choice = null;
  }

  /** A new battle (any change to the situation or the selection) starts a new roll. */
  sync(state) {
    const k = JSON.stringify(battleBody(state, this.attacksAlone(state)));
    if (k !== this.key) { this.key = k; this.reset(); }
  }

  counts() {
    const out = Object.fromEntries(FACES.map((f) => [f, 0]));
    for (const f of this.order) out[f] += 1;
    return out;
  }

  add(face, dice, state) {
    if (this.order.length >= dice) return;
    this.order.push(face);
    this.answer = null;
    this.choice = null;
    if (this.order.length === dice) this.apply(state);
    this.onChange();
  }

  undo() {
    this.order.pop();
    this.answer = null;
    this.choice = null;
    this.onChange();
  }

  async apply(state) {
    const body = {...battleBody(state, this.attacksAlone(state)), rolled: this.counts()};
    const k = this.key;
    this.pending = true;
    const res = await postJSON(this.api, body);
    if (k !== this.key) return;
    this.pending = false;
    this.answer = res;
    const options = res.ok ? res.data.retreat?.options || [] : [];
    this.choice = options.length === 1 ? 0 : null;
    this.onChange();
    // The outcome is what the player waits for: bring its first lines into the panel's view.
    bringIntoView(document.getElementById('roll-steps'));
    this.onAnswer?.();
  }

  /** The outcome on the board: the figures lost on the target, and the retreat paths. */
  overlay(board, target) {
    const d = this.answer?.ok ? this.answer.data : null;
    if (!d || !target) return {parts: [], retreat: null};
    const parts = [];
    const [x, y] = board.centre(target);
    if (d.figures_lost) {
      parts.push(board.hexShape(target, 'loss-hex', 0.95));
      parts.push(s('text',
        {class: 'loss-text', x: x - 18, y: y + 23, 'text-anchor': 'middle', 'dominant-baseline': 'central'},
        d.eliminated ? '✕' : `−${d.figures_lost}`));
    }
    const retreat = d.retreat?.options?.length ? d.retreat : null;
    return {parts, retreat};
  }

  /** The outcome as the player applies it: figures the target loses and where it ends. */
  outcome(target) {
    const d = this.answer.data;
    const options = d.retreat?.options || [];
    const opt = this.choice != null ? options[this.choice] : null;
    const lostToHits = d.figures_lost_to_hits ?? d.figures_lost;
    const lost = Math.min(target.figures, lostToHits + (opt ? opt.figures_lost : 0));
    const end = opt && !opt.eliminated ? opt.end : {row: target.row, col: target.col};
    const eliminated = d.eliminated || Boolean(opt?.eliminated) || lost >= target.figures;
    const vacated = eliminated || end.row !== target.row || end.col !== target.col;
    return {lost, end, eliminated, vacated};
  }

  /** The "Enter the roll" tab. */
  section({state, content, battle, target, label, onApply, onHighlight, onTakeGround, onOverrun}) {
    const dice = Number(battle.dice) || 0;
    const counts = this.counts();
    const n = this.order.length;
    const hits = new Set(battle.hit_symbols || []);
    const parts = [];
    parts.push(h('p', {class: 'roll-count', id: 'roll-count', 'aria-live': 'polite'},
      h('strong', {}, `${n} of ${dice}`), ` ${dice === 1 ? 'die' : 'dice'} entered`,
      n < dice ? ' — tap the face each die shows.' : this.pending ? ' — working it out…' : '.'));
    parts.push(h('div', {class: 'roll-faces', role: 'group', 'aria-label': 'Faces rolled'},
      // The button's name is its visible words with a few hidden ones ("Armor, hit: 0 rolled"),
      // so a voice user says what they see and a screen reader hears what it means.
      FACES.map((f) => h('button', {
        type: 'button', class: `roll-face${hits.has(f) ? ' hits' : ''}`, 'data-fk': `roll-${f}`, disabled: n >= dice,
        onclick: () => this.add(f, dice, state),
      }, faceIcon(f), h('span', {class: 'roll-face-name'}, content.faceName(f)),
      hits.has(f) ? [h('span', {class: 'visually-hidden'}, ', '), h('span', {class: 'roll-face-hit'}, 'hit')] : null,
      h('span', {class: 'visually-hidden'}, ': '), h('span', {class: 'roll-face-n'}, String(counts[f])),
      h('span', {class: 'visually-hidden'}, ' rolled')))));
    parts.push(h('div', {class: 'b-buttons'},
      h('button', {type: 'button', class: 'button secondary', 'data-fk': 'roll-undo', disabled: !n,
        onclick: () => this.undo()}, 'Undo'),
      h('button', {type: 'button', class: 'button secondary', 'data-fk': 'roll-clear', disabled: !n,
        onclick: () => { this.reset(); this.onChange(); }}, 'Clear'),
      n === dice && this.answer && !this.answer.ok ? h('button',
        {type: 'button', class: 'button', 'data-fk': 'roll-apply', onclick: () => this.apply(state)},
        'Try again') : null));
    if (this.answer && !this.answer.ok) {
      parts.push(h('p', {class: 'r-error', role: 'alert'}, this.answer.error.message,
        this.answer.error.field ? ` (field ${this.answer.error.field})` : ''));
    } else if (this.answer?.ok) {
      parts.push(...this.outcomeParts({content, target, label, onApply, onHighlight}));
    }
    if (this.after) parts.push(this.afterParts({content, label, onTakeGround, onOverrun}));
    return h('section', {class: 'r-section roll', 'data-tab': 'roll'}, h('h3', {}, 'Enter the roll'), ...parts);
  }

  outcomeParts({content, target, label, onApply, onHighlight}) {
    const d = this.answer.data;
    const link = (id) => (id && content.ruleUrl(id) ? h('a', {href: content.ruleUrl(id), class: 'rule-link'},
      content.name(id)) : null);
    const out = [h('h4', {id: 'roll-steps-h'}, 'What happens'),
      h('ol', {class: 'roll-steps', id: 'roll-steps'},
        (d.steps || []).map((st) => h('li', {}, st.text, ' ', h('span', {class: 'cite'}, link(st.rule)))))];
    const options = d.retreat?.options || [];
    if (options.length > 1 || (options.length === 1 && d.vacated === 'owner_choice')) {
      out.push(h('h4', {}, d.vacated === 'owner_choice' ? 'The owner chooses' : 'Where it retreats'),
        h('ol', {class: 'retreat-options', id: 'roll-retreat'}, options.map((opt, i) => {
          const stays = opt.end.row === target.row && opt.end.col === target.col;
          const n = opt.flags_ignored;
          const ignored = n ? `Ignore ${n} flag${n === 1 ? '' : 's'}, ` : '';
          const text = `${ignored}${stays ? `stay on ${label(opt.end)}` : `back to ${label(opt.end)}`}`;
          return h('li', {}, h('button', {
            type: 'button', class: 'option', 'data-fk': `roll-retreat-${i}`,
            'aria-pressed': this.choice === i ? 'true' : 'false',
            onclick: () => { this.choice = i; onHighlight(i); this.onChange(); },
          }, h('span', {}, text), h('span', {class: opt.figures_lost ? 'loss bad' : 'loss'},
            opt.eliminated ? 'eliminated' : opt.figures_lost ? `−${opt.figures_lost} more` : 'no loss')));
        })));
    }
    const needsChoice = options.length > 1 && this.choice == null;
    out.push(h('div', {class: 'b-buttons'}, h('button', {
      type: 'button', class: 'button', 'data-fk': 'roll-board', disabled: needsChoice,
      onclick: () => onApply(this.outcome(target)),
    }, needsChoice ? 'Pick a retreat first' : 'Apply to the board')));
    return out;
  }

  afterParts({content, label, onTakeGround, onOverrun}) {
    const a = this.after;
    const items = [];
    if (a.takeGround) {
      items.push(h('button', {type: 'button', class: 'button', 'data-fk': 'take-ground', onclick: onTakeGround},
        `Take ground: move the attacker into ${label(a.hex)}`));
    }
    if (a.overrun) {
      items.push(h('button', {type: 'button', class: 'button secondary', 'data-fk': 'overrun', onclick: onOverrun},
        'Armor overrun: battle again'));
    }
    items.push(h('button',
      {type: 'button', class: 'button secondary', 'data-fk': 'after-done',
        onclick: () => { this.after = null; this.onChange(); }}, 'Done'));
    return h('div', {class: 'roll-after', id: 'roll-after'}, h('h4', {}, 'After the battle'),
      h('p', {class: 'small'}, a.text, ' ',
        a.rule && content.ruleUrl(a.rule) ? h('a', {href: content.ruleUrl(a.rule), class: 'rule-link'},
          content.name(a.rule)) : null),
      h('div', {class: 'b-buttons'}, items));
  }
}
