// "Play a card": the side ordering and the command card played (a section card by its section, the
// card a Counter-Attack copies, the dice Their Finest Hour rolled). The units the card may order
// are ringed on the board, a count per section beside the ordering player's baseline, and tapping
// a unit orders it (or takes the order back): each pick is ruled by POST /api/v1/order, and one
// the card does not allow is refused with the reason and its rule. The card then drives /move,
// /battle and the fire map (builder-state.js `rulingDoc`, `playFields`).

import {LatestRequest, postJSON} from './builder-api.js';
import {$, fill, h, s} from './builder-dom.js';
import {orderRequest} from './builder-state.js';
import {message} from './builder-view.js';

const SECTIONS = ['left', 'center', 'right'];
const SECTION_NAMES = {left: 'left flank', center: 'centre', right: 'right flank'};

/** "1 unit", "2 units". */
const count = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export class Orders {
  /** `api`: the /api/v1/order URL; `redraw`: the controller's {all, overlay, …}; `syncControls`:
   * the settings' sync (the Cards box shows the card played here too). */
  constructor({store, content, readonly, redraw, api, syncControls}) {
    Object.assign(this, {store, content, readonly, redraw, api, syncControls});
    this.active = false; // taps on the board order units
    this.answer = null; // the last /order answer ({ok, data} or {ok: false, error})
    this.request = new LatestRequest(api);
    this.refusal = null; // the reasons the last pick was refused
  }

  /** Whether a card is played for a side: then taps may order units. */
  get playing() {
    return Boolean(orderRequest(this.store.state));
  }

  // -- asking ---------------------------------------------------------------------------------
  /** Ask /order again when the situation or the play changed (the answer redraws the board). */
  update() {
    const body = orderRequest(this.store.state);
    if (!body) {
      this.answer = null;
      this.active = false;
      this.request.clear();
      return;
    }
    this.request.ask(body, (answer) => {
      this.answer = answer;
      this.redraw.overlay();
      this.renderPanel();
    });
  }

  /** A tap on the board while ordering: order the unit there, or take its order back. */
  async tap(row, col) {
    const {store} = this;
    const unit = store.unitAt(row, col);
    if (!unit) {
      message('Tap a unit to order it (the ringed ones may be ordered).');
      return;
    }
    // The pick is made (or taken back): the board and the rulings follow it.
    const settle = (ordered) => {
      store.setOrdered(unit, ordered);
      this.refusal = null;
      message('');
      store.commit();
    };
    if (unit.ordered) {
      settle(false);
      return;
    }
    const body = orderRequest(store.state);
    body.selection = [...body.selection, unit.id];
    const res = await postJSON(this.api, body);
    if (!res.ok) {
      message(`The order could not be checked: ${res.error?.message || 'no answer'}.`, 'error');
      return;
    }
    const selection = res.data.selection;
    if (selection.legal) {
      settle(true);
      return;
    }
    // The reasons that concern this pick: those naming the unit, and the count.
    const mine = selection.why_not.filter((r) => r.params?.unit?.unit === unit.id || r.code === 'order.too_many');
    this.refusal = mine.length ? mine : selection.why_not;
    message(`Not ordered: ${this.refusal[0].text}.`, 'error');
    this.renderPanel();
  }

  // -- drawing --------------------------------------------------------------------------------
  /** One render pass: ask again if need be, and draw the panel. */
  render() {
    this.update();
    this.renderPanel();
  }

  /** Rings on the units the card may order (solid and ticked once ordered), and each section's
   * count beside the ordering player's baseline. */
  overlay(board) {
    const d = this.answer?.ok ? this.answer.data : null;
    if (!d || !this.playing) return [];
    const {store} = this;
    const parts = [];
    for (const entry of d.orderable) {
      const u = store.unitById(entry.unit);
      if (!u) continue;
      parts.push(board.hexShape(u, u.ordered ? 'order-on' : 'order-can', 0.9));
      if (u.ordered) {
        const [x, y] = board.centre(u);
        parts.push(s('text', {class: 'order-tick', x: x + 15, y: y - 15, 'text-anchor': 'middle',
          'dominant-baseline': 'central'}, '✓'));
      }
    }
    // Each section's count sits in the ordering player's baseline band, at the section's far end
    // (clear of the band's own "Allied centre" in its middle).
    const bd = store.board();
    const bottom = store.state.play.side === store.state.bottom_side;
    const radius = (board.y(1) - board.y(0)) / 1.5;
    const band = board.y(0) - radius;
    const y = bottom ? board.height - band / 2 : band / 2;
    const [lo, left, right, hi] = bd.section_bounds;
    const ends = {left: [lo, left], center: [left, right], right: [right, hi]};
    for (const g of d.groups.filter((x) => x.section)) {
      const [, end] = ends[this.boardSection(g.section, bottom)];
      const done = g.units.filter((id) => store.unitById(id)?.ordered).length;
      parts.push(s('text', {class: 'order-count', x: board.x(end) - 6, y, 'text-anchor': 'end',
        'dominant-baseline': 'central'}, `${Math.min(done, g.max)}/${g.max}`));
    }
    return parts;
  }

  /** The board's own section (as the bottom player sees it) of the ordering player's `section`. */
  boardSection(section, bottom) {
    if (bottom || section === 'center') return section;
    return section === 'left' ? 'right' : 'left';
  }

  renderPanel() {
    const box = $('#play-box');
    if (!box) return;
    const {store, content} = this;
    const {state} = store;
    const play = state.play || {};
    const parts = [];
    if (!this.readonly) parts.push(this.chooser(play));
    const d = this.answer?.ok ? this.answer.data : null;
    if (this.playing && this.answer && !this.answer.ok) {
      parts.push(h('p', {class: 'r-error small', id: 'play-error'}, this.answer.error.message));
    } else if (this.playing && d) {
      const ordered = state.units.filter((u) => u.ordered && u.side === play.side).length;
      const card = content.name(state.card);
      const where = d.section ? ` (${SECTION_NAMES[d.section]})` : '';
      parts.push(h('div', {class: 'play-status'},
        this.readonly ? null : h('button', {type: 'button', class: 'button', id: 'play-order', 'data-fk': 'play-order',
          'aria-pressed': this.active ? 'true' : 'false', onclick: () => this.toggle()},
        this.active ? 'Ordering: tap units' : 'Order units'),
        h('span', {class: 'play-count', id: 'play-count', 'aria-live': 'polite'},
          `${card}${where}: ${ordered} of ${count(d.max_units, 'unit')} ordered`),
        this.readonly || !ordered ? null : h('button', {type: 'button', class: 'button secondary', id: 'play-clear',
          'data-fk': 'play-clear', onclick: () => { store.clearOrders(); this.refusal = null; store.commit(); }},
        'Clear orders')));
      parts.push(h('p', {class: 'small muted play-orders'}, `Orders ${d.orders}.`,
        ...d.effects.slice(0, 2).map((e) => [' ', e.text, '.'])));
      if (this.refusal) parts.push(this.refusalNote());
      if (!this.readonly && d.obstacles_placed?.length) parts.push(this.placeButton(d.obstacles_placed));
    }
    fill(box, ...parts);
  }

  /** Dig In: the sandbags on the ordered units' hexes, put on the board with one tap (a hex that
   * already holds another obstacle keeps it: the builder draws one obstacle per hex). */
  placeButton(placed) {
    const {store, content} = this;
    const free = placed.filter((p) => !store.cell(p.row, p.col).obstacle);
    if (!free.length) return null;
    const name = content.name(free[0].obstacle);
    return h('button', {type: 'button', class: 'button secondary', id: 'play-place', 'data-fk': 'play-place',
      onclick: () => {
        for (const p of free) store.setCell(p.row, p.col, (c) => { c.obstacle = p.obstacle; c.owner = p.owner; });
        message(`${name} placed on ${free.map((p) => p.hex).join(', ')}.`);
        store.commit({push: true});
      }}, `Place the ${name.toLowerCase()} (${free.length})`);
  }

  refusalNote() {
    const {content} = this;
    return h('p', {class: 'r-error small', id: 'play-refusal', role: 'alert'},
      this.refusal.map((r) => {
        const url = content.ruleUrl(r.rule);
        return h('span', {class: 'play-why'}, `✖ ${r.text}`,
          url ? [' (', h('a', {href: url, class: 'rule-link'}, content.name(r.rule)), ')'] : null, '. ');
      }));
  }

  /** Side, card (section cards by section), and what the card needs besides. */
  chooser(play) {
    const {store, content} = this;
    const {state} = store;
    const side = h('select', {id: 'play-side', 'data-fk': 'play-side', 'aria-label': 'The side playing the card'},
      h('option', {value: ''}, 'No card played'),
      ['allies', 'axis'].map((x) => h('option', {value: x}, `${content.sideName(x)} play`)));
    side.value = play.side || '';
    side.addEventListener('change', () => {
      store.setPlay(side.value ? {...play, side: side.value} : null);
      if (!side.value) this.active = false;
      store.commit();
    });
    const card = h('select', {id: 'play-card', 'data-fk': 'play-card', 'aria-label': 'The command card played',
      disabled: !play.side}, h('option', {value: ''}, 'Choose a card…'), this.cardOptions());
    const info = content.p.command_cards.find((c) => c.id === state.card);
    card.value = state.card ? (info?.section ? `${state.card}@${play.section || 'center'}` : state.card) : '';
    card.addEventListener('change', () => {
      const [id, section] = card.value.split('@');
      store.setField('card', id || null);
      store.setPlay({side: play.side, ...(section ? {section} : {})});
      store.clearOrders();
      this.refusal = null;
      this.syncControls();
      store.commit();
    });
    const rows = [h('div', {class: 'play-row'}, h('span', {class: 'play-label', 'aria-hidden': 'true'}, 'Play a card'),
      side, card)];
    if (info?.copies) rows.push(this.copiedRow(play));
    if (info?.rolls?.length) rows.push(this.rolledRow(play, info.rolls));
    return rows;
  }

  cardOptions() {
    const cards = this.content.p.command_cards;
    const option = (c, section) => h('option', {value: section ? `${c.id}@${section}` : c.id},
      section ? `${c.name} — ${SECTION_NAMES[section]}` : c.name);
    return [['section', 'Section cards'], ['tactic', 'Tactic cards']].map(([type, label]) => h('optgroup', {label},
      cards.filter((c) => c.card_type === type)
        .map((c) => (c.section ? SECTIONS.map((x) => option(c, x)) : option(c, null)))));
  }

  /** Counter-Attack: the opponent's last card, with its section as he played it. */
  copiedRow(play) {
    const {store, content} = this;
    const copied = play.copied_card || {};
    const cards = content.p.command_cards.filter((c) => !c.copies);
    const select = h('select', {id: 'play-copied', 'data-fk': 'play-copied', 'aria-label': 'The card it copies'},
      h('option', {value: ''}, 'Copying…'),
      cards.map((c) => (c.section ? SECTIONS.map((x) => h('option', {value: `${c.id}@${x}`},
        `${c.name} — his ${SECTION_NAMES[x]}`)) : h('option', {value: c.id}, c.name))));
    select.value = copied.card ? (copied.section ? `${copied.card}@${copied.section}` : copied.card) : '';
    select.addEventListener('change', () => {
      const [id, section] = select.value.split('@');
      store.setPlay({...play, copied_card: id ? {card: id, ...(section ? {section} : {})} : undefined});
      store.clearOrders();
      store.commit();
    });
    return h('div', {class: 'play-row'}, h('span', {class: 'play-label'}, 'The opponent\'s last card'), select);
  }

  /** Their Finest Hour: how many dice showed each face that orders a unit (``faces``, the card's). */
  rolledRow(play, faces) {
    const {store, content} = this;
    const rolled = play.rolled || {};
    return h('div', {class: 'play-row', role: 'group', 'aria-label': 'The dice rolled'},
      h('span', {class: 'play-label'}, 'Dice rolled'),
      faces.map((face) => {
        const name = content.faceName(face);
        const input = h('input', {type: 'number', min: 0, max: 12, value: rolled[face] || 0, class: 'play-die',
          id: `play-die-${face}`, 'data-fk': `play-die-${face}`, 'aria-label': `${name} symbols rolled`});
        input.addEventListener('change', () => {
          const n = Math.max(0, Math.min(12, Number(input.value) || 0));
          store.setPlay({...play, rolled: {...rolled, [face]: n}});
          store.clearOrders();
          store.commit();
        });
        return h('label', {class: 'play-face'}, name, ' ', input);
      }));
  }

  /** The hint under the board while ordering. */
  hint() {
    return `Ordering with ${this.content.name(this.store.state.card)}: tap a ringed unit to order it, tap an `
      + 'ordered one to take its order back.';
  }

  /** Ordering mode on or off: while on, a tap on the board orders a unit instead of opening its hex. */
  toggle() {
    this.active = !this.active;
    this.refusal = null;
    message(this.active ? 'Tap the units to order; tap an ordered unit to take its order back.' : '');
    this.redraw.all();
  }
}
