// Move mode: the unit sheet's "Move" asks POST /api/v1/move where the unit may end
// its move, the board shades those hexes in two tones (may still battle / may not), a tap on a
// shaded hex moves the unit along the engine's path (kept on the unit as `path`, so the battle
// ruling, share links and saves all use it), and a tap anywhere else says why it cannot go there.

import {postJSON} from './builder-api.js';
import {h, s} from './builder-dom.js';
import {hexLabel} from './builder-results.js';
import {key, playFields, rulingDoc} from './builder-state.js';
import {hint, message} from './builder-view.js';

/** The /move request for a unit. A unit that already moved this turn is asked about from the
 * start of its path, so "Move" again re-plans the whole move rather than adding to it. */
export function moveRequest(state, unit) {
  const doc = rulingDoc(state);
  const item = doc.units.find((u) => u.id === unit.id);
  if (item && unit.path) {
    item.row = unit.path[0].row;
    item.col = unit.path[0].col;
  }
  if (item) { delete item.path; delete item.moved; }
  const body = {...doc, unit: unit.id};
  if (state.card) Object.assign(body, {card: state.card, ...playFields(state)});
  if (state.combat_card) body.combat_card = state.combat_card;
  return body;
}

/** Ask the engine; `move` is the ui's move record, filled in place. */
export async function fetchMoves(api, state, unit, move) {
  move.pending = true;
  move.start = unit.path ? unit.path[0] : {row: unit.row, col: unit.col};
  const res = await postJSON(api, moveRequest(state, unit));
  move.pending = false;
  move.answer = res;
  return res;
}

/** What a tap on (row, col) means while moving: a reachable hex, a hex it cannot end on (with
 * the engine's reasons), its own start (cancel), or a hex beyond its move. */
export function classify(move, row, col) {
  const d = move.answer?.ok ? move.answer.data : null;
  if (!d) return {kind: 'wait'};
  const at = (x) => x.row === row && x.col === col;
  if (move.start && at(move.start)) return {kind: 'start'};
  const entry = (d.reachable || []).find(at);
  if (entry) return {kind: 'reach', entry};
  const no = (d.unreachable || []).find(at);
  if (no) return {kind: 'unreachable', entry: no};
  return {kind: 'beyond', allowance: d.allowance};
}

/** The shading drawn while moving: each reachable hex in the tone of "may still battle" or
 * "may not", with the hexes it costs; the hexes within reach that it cannot end on, faint. */
export function moveOverlay(board, move) {
  const d = move.answer?.ok ? move.answer.data : null;
  if (!d) return [];
  const parts = [];
  for (const x of d.unreachable || []) parts.push(board.hexShape(x, 'move-no', 0.9));
  for (const x of d.reachable || []) {
    if (move.start && x.row === move.start.row && x.col === move.start.col) continue;
    parts.push(board.hexShape(x, x.may_battle ? 'move-hex move-battle' : 'move-hex move-stop', 0.9));
    const [cx, cy] = board.centre(x);
    parts.push(s('text',
      {class: `move-text ${x.may_battle ? 'battle' : 'stop'}`, x: cx, y: cy + 21, 'text-anchor': 'middle',
        'dominant-baseline': 'central'},
      `${x.hexes_moved}${x.may_battle ? '' : '✕'}`));
  }
  if (move.start) parts.push(board.hexShape(move.start, 'move-start', 0.9));
  return parts;
}

/** Every unit that moved this turn leaves a trail along its path. */
export function trails(board, units) {
  const parts = [];
  for (const u of units) {
    if (!u.path || u.path.length < 2) continue;
    const points = u.path.map((p) => board.centre(p).map((v) => v.toFixed(1)).join(',')).join(' ');
    parts.push(s('polyline', {class: 'move-trail', points}));
    const [x, y] = board.centre(u.path[0]);
    parts.push(s('circle', {class: 'move-trail-start', cx: x, cy: y, r: 4}));
  }
  return parts;
}

/** Hexes the move mode names, so their coordinates show. */
export function citedHexes(move) {
  const d = move?.answer?.ok ? move.answer.data : null;
  return d ? (d.reachable || []).map((x) => key(x.row, x.col)) : [];
}

function ruleLink(content, id) {
  const url = id ? content.ruleUrl(id) : null;
  return url ? h('a', {href: url, class: 'rule-link'}, content.name(id)) : null;
}

function reasonList(content, list) {
  if (!list?.length) return null;
  return h('ul', {class: 'reasons small'}, list.map((x) => h('li', {}, typeof x === 'string' ? x : x.text || '',
    typeof x === 'object' && x.rule ? [' ', h('span', {class: 'cite'}, '(', ruleLink(content, x.rule), ')')] : null)));
}

/**
 * The sheet while moving: the two tones explained, the move allowance with its rule, and what
 * the last tap said (why a hex is out of reach, with rule links, and a way to put the unit there
 * anyway while setting a situation up).
 */
export function moveSheet({content, move, unit, label, onCancel, onPlace, onRetry}) {
  const parts = [];
  const d = move.answer?.ok ? move.answer.data : null;
  if (move.pending || !move.answer) {
    parts.push(h('p', {class: 'r-note', id: 'move-status'}, 'Working out where it may move…'));
  } else if (!move.answer.ok) {
    parts.push(h('p', {class: 'r-error', role: 'alert', id: 'move-status'}, `No moves: ${move.answer.error.message}`,
      move.answer.error.field ? ` (field ${move.answer.error.field})` : ''),
    h('button', {type: 'button', class: 'button secondary', 'data-fk': 'move-retry', onclick: onRetry}, 'Try again'));
  } else {
    const n = (d.reachable || []).filter((x) => !(x.row === move.start.row && x.col === move.start.col)).length;
    parts.push(h('p', {class: 'move-status', id: 'move-status'},
      `Moves up to ${d.allowance} hex${d.allowance === 1 ? '' : 'es'}`,
      d.move_and_battle != null ? ` (up to ${d.move_and_battle} and still battle)` : '',
      ` · ${n} hex${n === 1 ? '' : 'es'} it may end on. `, ruleLink(content, d.allowance_rule)));
    parts.push(h('p', {class: 'move-key'},
      h('span', {class: 'lg-hex lg-move-battle'}), ' may still battle ',
      h('span', {class: 'lg-hex lg-move-stop'}), ' may not battle ',
      h('span', {class: 'lg-hex lg-move-no'}), ' cannot end there; the number is hexes moved'));
    if (d.why_not?.length) parts.push(h('p', {class: 'bad'}, 'It may not move:'), reasonList(content, d.why_not));
    parts.push(reasonList(content, d.notes));
  }
  const tap = move.tap;
  if (tap) {
    const where = label(tap);
    const box = [];
    if (tap.kind === 'unreachable') {
      box.push(h('p', {class: 'strong'}, `It cannot end its move on ${where}:`), reasonList(content, tap.entry.why));
    } else if (tap.kind === 'beyond') {
      box.push(h('p', {class: 'strong'},
        `${where} is beyond its move of ${tap.allowance} hex${tap.allowance === 1 ? '' : 'es'}.`));
    } else if (tap.kind === 'occupied') {
      box.push(h('p', {class: 'strong'}, `${where} is occupied by another unit.`));
    }
    if (tap.kind !== 'occupied') {
      box.push(h('button',
        {type: 'button', class: 'button secondary', 'data-fk': 'move-anyway', onclick: () => onPlace(tap)},
        `Put it on ${where} anyway (setting up, no move)`));
    }
    parts.push(h('div', {class: 'move-why', id: 'move-why', role: 'status'}, box));
  }
  parts.push(h('div', {class: 'b-buttons'},
    h('button', {type: 'button', class: 'button secondary', 'data-fk': 'move-cancel', onclick: onCancel},
      'Cancel the move'),
    unit.path ? h('button',
      {type: 'button', class: 'button secondary', 'data-fk': 'move-undo',
        onclick: () => onPlace({...unit.path[0], undo: true})},
      'Back to its start') : null));
  return parts;
}

/** One line saying what a move did, for the message bar. */
export function movedText(content, entry, label) {
  const via = entry.path.length > 2 ? ` via ${entry.path.slice(1, -1).map(label).join(', ')}` : '';
  const why = entry.why?.[0] ? ` (${entry.why[0].text})` : '';
  const battle = entry.may_battle ? 'it may still battle' : `it may not battle${why}`;
  return `Moved ${entry.hexes_moved} hex${entry.hexes_moved === 1 ? '' : 'es'} to ${label(entry)}${via}: ${battle}.`;
}

/** Move mode in the builder: "Move" on a unit's sheet starts it, a tap on the board moves the
 * unit or says why not, Escape or "Cancel the move" ends it. The move record lives in the store
 * (`ui.move`); this asks the engine and turns taps into store changes. */
export class MoveMode {
  /** `redraw`: the controller's {all, sheet, overlay}; `centreOn(p)` scrolls the board to a hex. */
  constructor({store, content, board, api, redraw, centreOn}) {
    Object.assign(this, {store, content, board, api, redraw, centreOn});
  }

  async start(unit) {
    const {store, redraw} = this;
    const move = store.startMoving(unit);
    redraw.all();
    this.board.focusHex(unit.row, unit.col);
    this.centreOn(unit);
    await fetchMoves(this.api, store.state, unit, move);
    if (store.ui.move !== move) return;
    const queued = move.queued;
    move.queued = null;
    if (queued) this.tap(queued.row, queued.col, store.unitAt(queued.row, queued.col));
    else redraw.all();
  }

  /** Put the moving unit on a hex: along the engine's path, or (setting up) without a move. */
  place(mover, to, path = null, hexesMoved = 0) {
    const {store} = this;
    store.moveUnit(mover, to, path, hexesMoved);
    store.stopMoving();
    store.select(to, {keepEditing: true});
    store.commit({push: true});
  }

  /** A tap on the board while moving. */
  tap(row, col, unit) {
    const {store, redraw} = this;
    const mover = store.unitById(store.ui.moving);
    if (!mover) { store.stopMoving(); return store.commit({refresh: false}); }
    const move = store.ui.move;
    const label = (p) => hexLabel(store.board(), p);
    const what = classify(move, row, col);
    if (what.kind === 'wait') {
      if (move.answer && !move.answer.ok) { move.tap = {kind: 'beyond', allowance: 0, row, col}; return redraw.all(); }
      move.queued = {row, col};
      return;
    }
    if (what.kind === 'start') {
      if (mover.path) return this.place(mover, mover.path[0]);
      store.stopMoving();
      return store.commit({refresh: false});
    }
    if (unit && unit !== mover) {
      move.tap = {kind: 'occupied', row, col};
      return redraw.all();
    }
    if (what.kind === 'reach') {
      this.place(mover, what.entry, what.entry.path, what.entry.hexes_moved);
      message(movedText(this.content, what.entry, label));
      return;
    }
    move.tap = {...what, row, col};
    hint(what.kind === 'unreachable' ? `It cannot end its move on ${label({row, col})}: see why below.`
      : `${label({row, col})} is beyond its move.`);
    redraw.sheet();
    redraw.overlay();
  }

  /** The sheet of the moving unit. */
  sheet(unit, label) {
    const {store} = this;
    return moveSheet({content: this.content, move: store.ui.move, unit, label,
      onCancel: () => { store.stopMoving(); store.commit({refresh: false}); },
      onPlace: (p) => this.place(unit, p), onRetry: () => this.start(unit)});
  }
}
