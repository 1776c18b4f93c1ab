// The situation builder: state, the hex sheet, and the live ruling from the JSON API.
// Our own ES modules, no framework, no external requests. See builder-state.js for the
// share-link format.
//
// The flow is built for one phone screen: the board stays put; tapping a hex opens a sheet of
// choices for that hex right at the bottom of the screen (a unit of either side, the common
// terrains and obstacles first, then "More…", clear); tapping a unit offers attacker, target,
// edit, move. A one-line ruling stays in view and opens into tabs. On a wide screen the same
// sheet and ruling sit in the column beside the board.

import {BoardView} from './builder-board.js';
import {postJSON, debounced} from './builder-api.js';
import {Content} from './builder-content.js';
import {h, $, $$, fill, pct} from './builder-dom.js';
import {renderRuling, hexLabel} from './builder-results.js';
import {segmented, unitFields, settleFigures, unitTypeOptions} from './builder-controls.js';
import {fetchMoves, classify, moveOverlay, trails, moveSheet, movedText} from './builder-move.js';
import {Roll} from './builder-roll.js';
import {FireMap} from './builder-firemap.js';
import {Orders} from './builder-orders.js';
import {choice as offlineChoice} from './offline-engine.js';
import {
  EMPTY, newState, situationDoc, savedDoc, encodeFragment, decodeFragment, key, nextUnitId, unitAt, unitById,
  rulingDoc, playFields, setPlay, setOrdered, clearOrders,
} from './builder-state.js';

const DATA = await loadData();
const content = DATA && new Content(DATA.palette);
const readonly = Boolean(DATA?.saved);

/** The page data: one content-hashed JSON asset (cached for a year), plus the saved situation
 * carried in the page when there is one. */
async function loadData() {
  const savedEl = document.getElementById('builder-saved');
  try {
    const response = await fetch(document.getElementById('builder-data-url').href, {headers: {Accept: 'application/json'}});
    if (response.ok) return {...await response.json(), saved: savedEl ? JSON.parse(savedEl.textContent) : null};
  } catch { /* reported below */ }
  message('The builder could not load its data. Check the connection and reload the page.', 'error');
  return null;
}

let state = newState(EMPTY);
const ui = {
  selected: null,
  editing: false,
  expanded: false,
  tab: 'dice',
  moving: null,
  move: null,  // the /move answer while moving (builder-move.js)
  labels: false,
  results: {},
  highlight: null,
  pending: false,
};
let lastFragment = null;

const board = DATA && new BoardView($('#board'), $('#board-wrap'), content, {onActivate: onHex});
/** The board faces of the content (core rule `board_faces`): id -> name, and the one drawn by default. */
const FACES = new Map((DATA?.faces?.list || []).map((f) => [f.id, f.name]));
const DEFAULT_FACE = DATA?.faces?.default || null;
if (board) board.defaultFace = DEFAULT_FACE;
const roll = DATA && new Roll(DATA.api.resolve, () => withFocusKept(renderResults), () => cardAttacksAlone());
/** Bring a hex well inside the board's view (clear of the zoom buttons at its right edge). */
function centreOn(p) {
  if (!p || !board.scale) return;
  const wrap = $('#board-wrap');
  const x = board.x(p.col) * board.scale;
  if (x < wrap.scrollLeft + 60 || x > wrap.scrollLeft + wrap.clientWidth - 90) wrap.scrollLeft = x - wrap.clientWidth / 2;
}
if (roll) roll.onAnswer = () => centreOn(unitById(state, state.target));
const fire = DATA && new FireMap(DATA.api.fire_map, () => { withFocusKept(renderSheet); drawOverlay(); });
// "Play a card" (builder-orders.js) reads and changes the situation through these few calls.
const orders = DATA && new Orders({
  store: {
    get state() { return state; },
    unitAt: (row, col) => unitAt(state, row, col), unitById: (id) => unitById(state, id), board: () => currentBoard(),
    setPlay: (play) => setPlay(state, play), setOrdered: (unit, on) => setOrdered(state, unit, on),
    clearOrders: () => clearOrders(state),
    setField: (name, value) => { state[name] = value; $('#card').value = state.card || ''; },
    commit: (options) => commit(options),
  },
  content, readonly, api: DATA.api.order, message: (text, kind) => message(text, kind),
  redraw: {overlay: () => drawOverlay(), all: () => render()},
});
const wide = window.matchMedia('(min-width: 62rem)');

// -- messages -------------------------------------------------------------------------------
function message(text, kind = 'info') {
  const el = $('#b-message');
  el.hidden = !text;
  el.className = `b-message ${kind}`;
  el.textContent = text || '';
}

function hint(text) {
  $('#b-hint').textContent = text;
}

function toolHint() {
  if (readonly) return 'Tap a hex to see what is on it.';
  if (ui.moving) {
    const u = unitById(state, ui.moving);
    return u ? `Moving ${content.sideName(u.side)} ${content.unitName(u)}: tap a shaded hex to move it there; tap another to hear why not (Esc cancels).` : '';
  }
  if (orders?.active) return orders.hint();
  if (!state.units.length) return 'Tap a hex to put a unit, terrain or an obstacle on it.';
  return 'Tap a hex to change it; tap a unit to make it the attacker or the target.';
}

// -- state changes ----------------------------------------------------------------------------
function currentBoard() {
  return DATA.boards[state.board];
}

function commit({push = false, refresh = true} = {}) {
  if (refresh) ui.pending = true;
  render();
  if (refresh) scheduleRefresh();
  if (!readonly) scheduleUrl(push);
}

const scheduleUrl = (() => {
  let timer = null;
  let pushNext = false;
  return (push) => {
    pushNext = pushNext || push;
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const fragment = await encodeFragment(state);
      lastFragment = fragment;
      const url = `${location.pathname}${location.search}#${fragment}`;
      if (pushNext) history.pushState(null, '', url);
      else history.replaceState(null, '', url);
      pushNext = false;
    }, push ? 0 : 250);
  };
})();

function load(next, {push = true, note = null} = {}) {
  state = newState(next);
  if (!DATA.boards[state.board]) state.board = 'standard';
  if (state.face && !FACES.has(state.face)) state.face = null;  // a face this content does not know
  ui.selected = null;
  ui.editing = false;
  ui.moving = null;
  ui.move = null;
  ui.results = {};
  if (roll) roll.after = null;
  board.setBoard(currentBoard());
  syncGlobalControls();
  commit({push});
  const points = [unitById(state, state.attacker), unitById(state, state.target)].filter(Boolean);
  requestAnimationFrame(() => board.reveal(points.length ? points : state.units));
  if (note) message(note, 'info');
}

// -- board taps -------------------------------------------------------------------------------
function onHex(row, col, keyboard = false) {
  const unit = unitAt(state, row, col);
  message('');
  if (ui.moving && !readonly) return moveTap(row, col, unit);
  if (orders?.active && !readonly) return orders.tap(row, col);
  ui.selected = {row, col};
  ui.editing = false;
  ui.expanded = false;
  commit({refresh: Boolean(unit && content.canResupply(unit))});
  // From the keyboard, the sheet's first choice takes the focus (Escape comes back here).
  if (keyboard) $('#sheet-body button, #sheet-body select, #sheet-body a')?.focus();
}

// -- move mode (builder-move.js) ----------------------------------------------------------------
async function startMove(unit) {
  ui.moving = unit.id;
  ui.move = {tap: null, queued: null};
  const move = ui.move;
  render();
  board.focusHex(unit.row, unit.col);
  centreOn(unit);
  await fetchMoves(DATA.api.move, state, unit, move);
  if (ui.move !== move) return;
  const queued = move.queued;
  move.queued = null;
  if (queued) moveTap(queued.row, queued.col, unitAt(state, queued.row, queued.col));
  else render();
}

function stopMove() {
  ui.moving = null;
  ui.move = null;
}

/** Put the moving unit on a hex: along the engine's path, or (setting up) without a move. */
function relocate(mover, to, path = null, hexesMoved = 0) {
  const hadPath = Boolean(mover.path);
  mover.row = to.row;
  mover.col = to.col;
  mover.path = path && path.length > 1 ? path.map((p) => ({row: p.row, col: p.col})) : null;
  // The token's →n shows the hexes moved (climb costs counted); the engine reads the path.
  if (mover.path) mover.moved = hexesMoved;
  else if (hadPath) mover.moved = 0;
  stopMove();
  ui.selected = {row: to.row, col: to.col};
  commit({push: true});
}

function moveTap(row, col, unit) {
  const mover = unitById(state, ui.moving);
  if (!mover) { stopMove(); return commit({refresh: false}); }
  const move = ui.move;
  const label = (p) => hexLabel(currentBoard(), p);
  const what = classify(move, row, col);
  if (what.kind === 'wait') {
    if (move.answer && !move.answer.ok) { move.tap = {kind: 'beyond', allowance: 0, row, col}; return render(); }
    move.queued = {row, col};
    return;
  }
  if (what.kind === 'start') {
    if (mover.path) return relocate(mover, mover.path[0]);
    stopMove();
    return commit({refresh: false});
  }
  if (unit && unit !== mover) {
    move.tap = {kind: 'occupied', row, col};
    return render();
  }
  if (what.kind === 'reach') {
    relocate(mover, what.entry, what.entry.path, what.entry.hexes_moved);
    message(movedText(content, what.entry, label));
    return;
  }
  move.tap = {...what, row, col};
  hint(what.kind === 'unreachable' ? `It cannot end its move on ${label({row, col})}: see why below.` : `${label({row, col})} is beyond its move.`);
  withFocusKept(renderSheet);
  drawOverlay();
}

function closeSheet() {
  const was = ui.selected;
  const inSheet = $('#sheet').contains(document.activeElement) || document.activeElement === document.body;
  ui.selected = null;
  ui.editing = false;
  stopMove();
  commit({refresh: false});
  if (was && inSheet) board.focusHex(was.row, was.col);
}

function placeUnit(row, col, side, type) {
  const unit = {id: nextUnitId(state), side, type, row, col, figures: null, start_figures: null, badges: [], nation: null, moved: 0};
  settleFigures(content, unit, true);
  state.units.push(unit);
  settleRoles(unit);
  return unit;
}

function removeUnit(unit) {
  state.units = state.units.filter((u) => u !== unit);
  if (state.attacker === unit.id) state.attacker = null;
  if (state.target === unit.id) state.target = null;
  if (ui.moving === unit.id) stopMove();
  settleRoles(null);
}

/** Attacker and target follow the board without a tap: the first unit placed attacks, the
 * first one of the other side is its target; a side change that makes them friends frees the
 * target role for the nearest-placed unit of the other side. `changed` is the unit just placed
 * or edited, preferred for a free role. */
function settleRoles(changed) {
  let a = unitById(state, state.attacker);
  let t = unitById(state, state.target);
  if (a && t && a.side === t.side) {
    if (changed === a || changed !== t) t = null;
    else a = null;
  }
  const latestOf = (side, not) => [...state.units].reverse().find((u) => u.side === side && u !== not) || null;
  if (!a && !t && changed && state.units.includes(changed)) {
    a = changed;
    t = latestOf(changed.side === 'allies' ? 'axis' : 'allies');
  }
  if (a && !t) t = changed && changed !== a && changed.side !== a.side ? changed : latestOf(a.side === 'allies' ? 'axis' : 'allies');
  if (t && !a) a = changed && changed !== t && changed.side !== t.side ? changed : latestOf(t.side === 'allies' ? 'axis' : 'allies');
  state.attacker = a ? a.id : null;
  state.target = t ? t.id : null;
}

// -- rendering --------------------------------------------------------------------------------
function withFocusKept(fn) {
  const active = document.activeElement;
  const fk = active?.dataset?.fk;
  const inSheet = $('#sheet').contains(active);
  fn();
  if (fk) {
    const again = document.querySelector(`[data-fk="${CSS.escape(fk)}"]`);
    if (again && !again.disabled) again.focus({preventScroll: true});
    // A choice that is gone after its own tap (a unit placed): focus stays in the sheet.
    else if (inSheet && !$('#sheet').hidden) $('#sheet-body button, #sheet-body select')?.focus({preventScroll: true});
  }
}

function render() {
  fire?.update(state, ui.moving ? null : selectedUnit());
  board.render(state, ui);
  renderFace();
  hint(toolHint());
  withFocusKept(() => {
    renderSheet();
    renderResults();
    orders?.render();
  });
  fitDock();
}

/** The legend says which face the board is drawn in; the face is only a look (core rule `board_faces`). */
function renderFace() {
  const item = $('#legend-face');
  if (!item) return;
  const face = state.face || DEFAULT_FACE;
  item.hidden = !FACES.size;
  const rule = DATA.faces.entry ? content.ruleUrl(DATA.faces.entry) : null;
  fill(item, h('span', {class: 'lg-hex t-open', 'data-face': face, 'aria-hidden': 'true'}), ' Board face: ', h('strong', {id: 'legend-face-name'}, FACES.get(face) || face || 'none'),
    ` — the printed look of the board${state.face ? '' : ' (none given: the default)'}; it changes no rule`,
    rule ? [' (', h('a', {href: rule}, 'board faces'), ')'] : null, '.');
}

/** On a phone the docked sheet and ruling take the screen below the board, never the board. */
function fitDock() {
  const dock = $('#b-dock');
  if (wide.matches) { dock.style.removeProperty('--dock-max'); return; }
  const bottom = $('#board-wrap').getBoundingClientRect().bottom + window.scrollY;
  dock.style.setProperty('--dock-max', `${Math.max(window.innerHeight - bottom, window.innerHeight * 0.3)}px`);
}

const otherSide = (side) => (side === 'allies' ? 'axis' : 'allies');

function chip({label, pressed, fk, onclick, cls = '', aria}) {
  return h('button', {type: 'button', class: `chip-btn ${cls}`, 'aria-pressed': pressed === undefined ? undefined : pressed ? 'true' : 'false',
    'data-fk': fk, 'aria-label': aria, onclick}, label);
}

/** A short "More…" list after the common choices: every other choice of the palette. */
function moreSelect({label, fk, options, value = '', empty, onChange}) {
  const el = h('select', {class: 'more-select', 'data-fk': fk, 'aria-label': label});
  el.append(h('option', {value: ''}, empty));
  const groups = new Map();
  for (const opt of options) {
    const node = h('option', {value: opt.value}, opt.label);
    if (!opt.group) { el.append(node); continue; }
    if (!groups.has(opt.group)) { groups.set(opt.group, h('optgroup', {label: opt.group})); el.append(groups.get(opt.group)); }
    groups.get(opt.group).append(node);
  }
  el.value = value || '';
  el.addEventListener('change', () => onChange(el.value || null));
  return el;
}

function sheetRow(label, ...children) {
  return h('div', {class: 'sheet-row', role: 'group', 'aria-label': label}, h('span', {class: 'sheet-label', 'aria-hidden': 'true'}, label), ...children);
}

/** The choices for the tapped hex. */
function renderSheet() {
  const sheet = $('#sheet');
  document.body.classList.toggle('sheet-open', Boolean(ui.selected) && !(ui.expanded && !wide.matches));
  if (!ui.selected) { sheet.hidden = true; return; }
  const {row, col} = ui.selected;
  const bd = currentBoard();
  const hx = bd.hexes.find((x) => x.row === row && x.col === col);
  if (!hx) { ui.selected = null; sheet.hidden = true; return; }
  sheet.hidden = false;
  const cellKey = key(row, col);
  const cell = state.hexes.get(cellKey) || {terrain: null, obstacle: null, owner: null};
  const unit = unitAt(state, row, col);
  const where = [cell.terrain ? content.name(cell.terrain) : 'Countryside', cell.obstacle ? content.name(cell.obstacle) : null].filter(Boolean).join(' + ');
  $('#sheet-h').textContent = unit ? `${hx.label} · ${content.sideName(unit.side)} ${content.unitName(unit)} ${unit.figures}/${content.startFigures(unit)} · ${where}`
    : `${hx.label} · ${where}`;
  const body = $('#sheet-body');
  const section = hx.sections.length > 1 ? `on the line between the ${hx.sections.join(' and ')} sections` : `${hx.sections[0]} section`;

  if (readonly) {
    fill(body, h('dl', {class: 'facts-list'},
      h('dt', {}, 'Terrain'), h('dd', {}, cell.terrain ? h('a', {href: content.ruleUrl(cell.terrain)}, content.name(cell.terrain)) : 'Countryside'),
      cell.obstacle ? [h('dt', {}, 'Obstacle'), h('dd', {}, h('a', {href: content.ruleUrl(cell.obstacle)}, content.name(cell.obstacle)), cell.owner ? ` (owner: ${cell.owner})` : '')] : null,
      unit ? [h('dt', {}, 'Unit'), h('dd', {}, `${content.sideName(unit.side)} ${content.unitName(unit)}, ${unit.figures}/${content.startFigures(unit)} figures${unit.badges.length ? `, ${unit.badges.map((b) => content.name(b)).join(', ')}` : ''}${unit.moved ? `, moved ${unit.moved}` : ''}`)] : null,
      h('dt', {}, 'Where'), h('dd', {}, `Row ${row}, column ${col}, ${section}`)));
    return;
  }

  const setCell = (mutate) => {
    mutate(cell);
    if (cell.terrain || cell.obstacle) state.hexes.set(cellKey, cell);
    else state.hexes.delete(cellKey);
    commit();
  };
  const parts = [];
  if (unit && ui.moving === unit.id && ui.move) {
    fill(body, ...moveSheet({content, move: ui.move, unit, label: (p) => hexLabel(bd, p),
      onCancel: () => { stopMove(); commit({refresh: false}); },
      onPlace: (p) => relocate(unit, p), onRetry: () => startMove(unit)}));
    return;
  }
  if (unit) {
    const role = (name) => () => {
      const other = name === 'attacker' ? 'target' : 'attacker';
      state[name] = state[name] === unit.id ? null : unit.id;
      if (state[other] === unit.id) state[other] = null;
      if (state[name] === unit.id) {
        const rival = unitById(state, state[other]);
        if (rival && rival.side === unit.side) state[other] = null;
      }
      settleRoles(state[name] === unit.id ? null : unit);
      commit();
    };
    parts.push(h('div', {class: 'roles'},
      h('button', {type: 'button', class: 'button role-btn atk', 'aria-pressed': state.attacker === unit.id ? 'true' : 'false', 'data-fk': 'role-a', onclick: role('attacker')}, 'Attacker'),
      h('button', {type: 'button', class: 'button role-btn tgt', 'aria-pressed': state.target === unit.id ? 'true' : 'false', 'data-fk': 'role-t', onclick: role('target')}, 'Target'),
      h('button', {type: 'button', class: 'button secondary', 'data-fk': 'edit', 'aria-expanded': ui.editing ? 'true' : 'false',
        onclick: () => { ui.editing = !ui.editing; render(); }}, 'Edit'),
      // Move: the board shades where it may go (POST /api/v1/move, builder-move.js).
      h('button', {type: 'button', class: 'button secondary', 'data-fk': 'move', 'aria-pressed': ui.moving === unit.id ? 'true' : 'false',
        onclick: () => startMove(unit)}, 'Move'),
      h('button', {type: 'button', class: 'button danger', 'data-fk': 'remove', onclick: () => { removeUnit(unit); commit(); }}, 'Remove')));
    if (ui.editing) {
      parts.push(h('div', {class: 'b-form unit-form'}, unitFields(content, unit, () => { settleRoles(unit); commit(); }, {fk: 'unit'})));
    }
    if (unit.path) {
      parts.push(h('p', {class: 'small'}, `Moved this turn: ${unit.path.map((p) => hexLabel(bd, p)).join(' → ')}. `,
        h('button', {type: 'button', class: 'button secondary', 'data-fk': 'unmove', onclick: () => { unit.row = unit.path[0].row; unit.col = unit.path[0].col; unit.path = null; unit.moved = 0; ui.selected = {row: unit.row, col: unit.col}; commit({push: true}); }}, 'Undo the move')));
    }

  } else {
    const common = content.p.common.units;
    const others = unitTypeOptions(content).filter((o) => !common.includes(o.value));
    const sides = [state.bottom_side, otherSide(state.bottom_side)];
    sides.forEach((side, i) => {
      const name = content.sideName(side);
      parts.push(sheetRow(side === 'axis' ? 'Axis' : 'Allies',
        common.map((type) => chip({label: content.name(type), cls: `side-${side}`, fk: `place-${side}-${type}`,
          aria: `Place ${name} ${content.name(type)} here`, onclick: () => { placeUnit(row, col, side, type); commit(); }})),
        i === 1 ? moreSelect({label: 'Place another unit type', fk: 'place-more', empty: 'More…',
          options: sides.flatMap((sd) => others.map((o) => ({value: `${sd}:${o.value}`, label: o.label, group: `${content.sideName(sd)} ${o.group.toLowerCase()}`}))),
          onChange: (v) => { if (v) { const [sd, type] = v.split(':'); placeUnit(row, col, sd, type); commit(); } }}) : null));
    });
  }
  const terrainChoices = [...content.p.common.terrain];
  if (cell.terrain && !terrainChoices.includes(cell.terrain)) terrainChoices.unshift(cell.terrain);
  parts.push(sheetRow('Terrain',
    terrainChoices.map((id) => chip({label: content.terrain.get(id)?.short || content.name(id), aria: content.name(id), pressed: cell.terrain === id, fk: `terrain-${id}`,
      onclick: () => setCell((c) => { c.terrain = c.terrain === id ? null : id; })})),
    moreSelect({label: 'Terrain: every kind', fk: 'sel-terrain', value: cell.terrain, empty: 'More…',
      options: content.p.terrain.map((t) => ({value: t.id, label: t.name})), onChange: (v) => setCell((c) => { c.terrain = v; })})));
  const obstacleChoices = [...content.p.common.obstacles];
  if (cell.obstacle && !obstacleChoices.includes(cell.obstacle)) obstacleChoices.unshift(cell.obstacle);
  parts.push(sheetRow('Obstacle',
    obstacleChoices.map((id) => chip({label: content.obstacles.get(id)?.short || content.name(id), aria: content.name(id), pressed: cell.obstacle === id, fk: `obstacle-${id}`,
      onclick: () => setCell((c) => { c.obstacle = c.obstacle === id ? null : id; if (!c.obstacle) c.owner = null; })})),
    moreSelect({label: 'Obstacle: every kind', fk: 'sel-obstacle', value: cell.obstacle, empty: 'More…',
      options: content.p.obstacles.map((o) => ({value: o.id, label: o.name})), onChange: (v) => setCell((c) => { c.obstacle = v; if (!v) c.owner = null; })})));
  const feature = content.obstacles.get(cell.obstacle);
  if (feature?.owner_matters || cell.owner || content.terrain.get(cell.terrain)?.owner_matters) {
    parts.push(segmented({label: 'Original owner of the hex', value: cell.owner || '', fk: 'sel-owner',
      options: [{value: '', label: 'Not set'}, {value: 'allies', label: 'Allies'}, {value: 'axis', label: 'Axis'}],
      onChange: (v) => setCell((c) => { c.owner = v || null; })}));
  }
  if (unit || cell.terrain || cell.obstacle) {
    parts.push(h('div', {class: 'b-buttons'}, h('button', {type: 'button', class: 'button secondary', 'data-fk': 'clear-hex',
      onclick: () => { if (unit) removeUnit(unit); state.hexes.delete(cellKey); commit(); }}, 'Clear this hex')));
  }
  parts.push(h('p', {class: 'muted small'}, `Row ${row}, column ${col} · ${section} (as the bottom player sees it)${unit ? ` · unit id ${unit.id}` : ''}`));
  // The fire map (builder-firemap.js) comes last, so the choices above never shift under a thumb.
  if (unit) {
    parts.push(fire.sheet({state, content, label: (p) => hexLabel(bd, p), onPick: (b) => {
      state.attacker = b.attacker;
      state.target = b.target;
      commit();
    }}));
  }
  fill(body, ...parts);
}

function selectedUnit() {
  return ui.selected ? unitAt(state, ui.selected.row, ui.selected.col) : null;
}

function selectedSupplier() {
  if (!ui.selected) return null;
  const unit = unitAt(state, ui.selected.row, ui.selected.col);
  return unit && content.canResupply(unit) ? unit : null;
}

function renderResults() {
  const attacker = unitById(state, state.attacker);
  const target = unitById(state, state.target);
  const ruling = $('#ruling');
  renderRuling(ruling, {
    r: ui.results, state, content, board: currentBoard(), attacker, target, supplier: selectedSupplier(), pending: ui.pending,
    onFlags: (n) => { state.flags = n; ui.highlight = null; commit(); },
    onHighlight: (i) => { ui.highlight = i; drawOverlay(); },
  });
  renderRoll(ruling, attacker, target);
  renderTabs(ruling);
  drawOverlay();
  renderSummary();
}

/** "Enter the roll" (builder-roll.js): a tab after a legal ruling, opened from a button in the
 * verdict; applying the outcome changes the board, then take ground and overrun are offered. */
function renderRoll(ruling, attacker, target) {
  const b = ui.results.battle;
  roll.sync(state);
  const legal = !readonly && attacker && target && b?.ok && b.data.legal && b.data.dice > 0 && !ui.pending;
  const bd = currentBoard();
  const label = (p) => hexLabel(bd, p);
  if (!legal && !roll.after) return;
  if (legal) {
    $('#verdict', ruling)?.append(h('button', {type: 'button', class: 'button roll-open', 'data-fk': 'enter-roll',
      onclick: () => { ui.tab = 'roll'; ui.expanded = true; render(); $('#tab-roll')?.focus(); }}, 'Enter the roll'));
  }
  const section = legal ? roll.section({state, content, board: bd, battle: b.data, attacker, target, label,
    onHighlight: (i) => { ui.highlight = i; drawOverlay(); },
    onApply: (o) => applyOutcome(attacker, target, o),
    onTakeGround: takeGround,
    onOverrun: overrun,
  }) : h('section', {class: 'r-section roll', 'data-tab': 'roll'}, h('h3', {}, 'After the battle'),
    roll.afterParts({content, label, onTakeGround: takeGround, onOverrun: overrun}));
  ruling.append(section);
}

/** The outcome entered, applied: the target loses its figures, retreats or is removed; take
 * ground and the overrun are offered when the hex is vacated and the ruling allows them. */
function applyOutcome(attacker, target, o) {
  const d = roll.answer.data;
  const hex = {row: target.row, col: target.col};
  if (o.eliminated) removeUnit(target);
  else {
    target.figures -= o.lost;
    target.row = o.end.row;
    target.col = o.end.col;
    target.path = null;
  }
  const takeGround = o.vacated && (d.take_ground_if_vacated || d.take_ground);
  const overrunOk = o.vacated && (d.overrun_if_vacated || d.overrun);
  roll.after = takeGround ? {
    attacker: attacker.id, hex, takeGround: true, overrun: overrunOk, rule: overrunOk ? 'armor_overrun' : 'take_ground',
    text: (overrunOk ? d.advance?.overrun_reasons?.[0]?.text : d.advance?.take_ground_reasons?.[0]?.text) || '',
  } : null;
  ui.highlight = null;
  ui.tab = 'roll';
  message(o.eliminated ? 'The target is eliminated.' : `The target lost ${o.lost} figure${o.lost === 1 ? '' : 's'}${o.vacated ? ' and retreated' : ''}.`);
  commit({push: true});
}

function takeGround() {
  const a = roll.after;
  const attacker = unitById(state, a?.attacker);
  if (!attacker || unitAt(state, a.hex.row, a.hex.col)) { roll.after = null; return commit(); }
  attacker.row = a.hex.row;
  attacker.col = a.hex.col;
  attacker.path = null;  // taking ground is not part of the move
  roll.after = a.overrun ? {...a, takeGround: false} : null;
  ui.selected = null;
  message(`The attacker took ground on ${hexLabel(currentBoard(), a.hex)}.`);
  commit({push: true});
}

/** The overrun battle: the same armor battles again, an enemy next to it first. */
function overrun() {
  const a = roll.after;
  const attacker = unitById(state, a?.attacker);
  roll.after = null;
  if (!attacker) return commit();
  const dist = (p, q) => { const dr = Math.abs(p.row - q.row); const dc = Math.abs(p.col - q.col); return dr + Math.max(0, (dc - dr) / 2); };
  const enemies = state.units.filter((u) => u.side !== attacker.side).sort((p, q) => dist(attacker, p) - dist(attacker, q));
  state.attacker = attacker.id;
  state.target = enemies[0]?.id || null;
  state.overrun_battle = true;
  syncGlobalControls();
  ui.tab = 'dice';
  message('Armor overrun: the ruling is now the overrun battle (no second overrun follows).');
  commit({push: true});
}

const TABS = [['dice', 'Dice'], ['roll', 'Roll'], ['los', 'Line of sight'], ['retreat', 'Retreat'], ['odds', 'Odds'], ['after', 'After the battle']];

/** The ruling's parts as tabs: only the chosen part shows, so the board stays on screen. */
function renderTabs(ruling) {
  const present = new Set([...ruling.querySelectorAll('.r-section[data-tab]')].map((el) => el.dataset.tab));
  const tabs = TABS.filter(([id]) => present.has(id));
  if (tabs.length && !present.has(ui.tab)) ui.tab = tabs[0][0];
  ruling.dataset.tab = tabs.length ? ui.tab : '';
  const list = $('#ruling-tabs');
  list.hidden = !tabs.length;
  fill(list, tabs.map(([id, label]) => h('button', {
    type: 'button', role: 'tab', class: 'r-tab', id: `tab-${id}`, 'data-fk': `tab-${id}`, 'aria-selected': ui.tab === id ? 'true' : 'false',
    'aria-controls': 'ruling', tabindex: ui.tab === id ? '0' : '-1',
    onclick: () => { ui.tab = id; withFocusKept(() => renderTabs(ruling)); },
    onkeydown: (e) => {
      const i = tabs.findIndex(([x]) => x === id);
      const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      if (!step) return;
      e.preventDefault();
      ui.tab = tabs[(i + step + tabs.length) % tabs.length][0];
      renderTabs(ruling);
      $(`#tab-${ui.tab}`).focus();
    },
  }, label)));
}

/** The one-line ruling that stays on screen: legal or why not · dice · hit faces · chance of at
 * least one hit · line of sight. Tapping it opens the whole ruling (on a phone). */
function summaryText() {
  const b = ui.results.battle;
  const attacker = unitById(state, state.attacker);
  const target = unitById(state, state.target);
  if (!state.units.length) return {cls: '', text: 'Tap a hex to place a unit: two of opposite sides make a battle.'};
  if (!attacker || !target) return {cls: '', text: target ? 'Pick an attacker: tap a unit, then Attacker.' : 'Place a unit of the other side to see the battle.'};
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
    if (d.hit_symbols?.length) bits.push(`hits: ${d.hit_symbols.map((f) => content.name(f).toLowerCase()).join(', ')}`);
    if (d.probabilities?.hits) bits.push(`${pct(1 - d.probabilities.hits[0])} ≥1 hit`);
  } else {
    const why = d.why_not?.[0];
    bits.push(`✖ Not allowed${why ? `: ${typeof why === 'string' ? why : why.text || ''}` : ''}`);
  }
  if (los?.needed !== false) bits.push(los?.clear ? 'LOS clear' : 'no LOS');
  return {cls: `${d.legal ? 'legal' : 'illegal'}${ui.pending ? ' pending' : ''}`, text: bits.join(' · ')};
}

function renderSummary() {
  const el = $('#b-summary');
  const {cls, text} = summaryText();
  el.className = `b-summary ${cls}`;
  const open = wide.matches || ui.expanded;
  el.setAttribute('aria-expanded', open ? 'true' : 'false');
  el.title = text.replace('LOS', 'line of sight');
  // The same live text node each time, so a screen reader hears each new ruling once.
  const line = $('.b-summary-text', el) || el.appendChild(h('span', {class: 'b-summary-text', 'aria-live': 'polite'}));
  if (line.textContent !== text) line.textContent = text;
  const more = $('.b-summary-more', el) || el.appendChild(h('span', {class: 'b-summary-more', 'aria-hidden': 'true'}));
  more.hidden = wide.matches;
  more.textContent = ui.expanded ? '▾' : '▴';
  $('#ruling-box').classList.toggle('expanded', open);
  document.body.classList.toggle('ruling-open', ui.expanded && !wide.matches);
  $('#copy-ruling').hidden = !(ui.results.battle?.ok);
}

function drawOverlay() {
  const attacker = unitById(state, state.attacker);
  const target = unitById(state, state.target);
  const r = ui.results;
  const supplier = selectedSupplier();
  let errorHex = null;
  const err = [r.battle, r.los, r.retreat, r.resupply].find((x) => x && !x.ok && x.error?.field)?.error;
  if (err) {
    const m = /^(units|hexes)\[(\d+)\]/.exec(err.field);
    const doc = situationDoc(state);
    const item = m ? doc[m[1]][Number(m[2])] : null;
    if (item) errorHex = {row: item.row, col: item.col};
  }
  const resupply = supplier && r.resupply?.ok ? (r.resupply.data.targets || []).map((t) => {
    const u = unitById(state, t.unit);
    return u ? {hex: {row: u.row, col: u.col}, max_figures: t.max_figures} : null;
  }).filter(Boolean) : null;
  // While moving, the board shows where the unit may go; a selected unit shows its fire map; an
  // entered roll shows its outcome (its own retreat paths instead of the flags picker's).
  const moving = ui.moving && ui.move;
  const rolled = !moving && roll ? roll.overlay(board, target) : {parts: [], retreat: null};
  const showFire = !moving && fire?.unit && !rolled.retreat && !rolled.parts.length;
  board.setOverlay({
    los: attacker && target && r.los?.ok && !moving ? r.los.data : null, from: attacker, to: target,
    // Retreats are drawn for a battle that may happen, or while one option is pointed at.
    retreat: moving || showFire ? null : rolled.retreat
      || (target && r.retreat?.ok && (!attacker || (r.battle?.ok && r.battle.data.legal) || ui.highlight !== null) ? r.retreat.data : null),
    retreatFrom: target,
    highlight: rolled.retreat ? roll.choice ?? ui.highlight : ui.highlight, resupply, errorHex,
    under: [...trails(board, state.units), ...(moving ? moveOverlay(board, ui.move) : []),
      ...(showFire ? fire.sightShading(board) : [])],
    extra: [...rolled.parts, ...(showFire ? fire.overlay(board, state) : []), ...(orders ? orders.overlay(board) : [])],
  });
}

// -- the API ----------------------------------------------------------------------------------
/** Whether the chosen command card attacks by itself (Air Power, Barrage): then /battle and
 * /resolve rule the card's dice on the target, and the attacker plays no part. */
function cardAttacksAlone() {
  return Boolean(state.card && content.p.command_cards.find((c) => c.id === state.card)?.attacks_alone);
}

const scheduleRefresh = debounced(async (signal) => {
  const doc = situationDoc(state);
  const attacker = unitById(state, state.attacker);
  const target = unitById(state, state.target);
  const supplier = selectedSupplier();
  const jobs = {};
  if (attacker && target) {
    const alone = cardAttacksAlone();
    const battle = {...rulingDoc(state), attacker: alone ? null : attacker.id, target: target.id};
    if (state.card) Object.assign(battle, {card: state.card, ...playFields(state)});
    if (state.combat_card) battle.combat_card = state.combat_card;
    if (state.overrun_battle) battle.overrun_battle = true;
    jobs.battle = postJSON(DATA.api.battle, battle, signal);
    // The card's own attack needs no line of sight (it is ruled on the target alone).
    if (!alone) jobs.los = postJSON(DATA.api.line_of_sight, {...doc, from: {row: attacker.row, col: attacker.col}, to: {row: target.row, col: target.col}}, signal);
  }
  if (target) {
    const retreat = {...doc, unit: target.id, flags: state.flags};
    if (state.card) retreat.card = state.card;
    if (state.combat_card) retreat.combat_card = state.combat_card;
    jobs.retreat = postJSON(DATA.api.retreat, retreat, signal);
  }
  if (supplier) jobs.resupply = postJSON(DATA.api.resupply, {...doc, supplier: supplier.id}, signal);
  const names = Object.keys(jobs);
  const answers = await Promise.all(Object.values(jobs));
  if (signal.aborted || answers.some((a) => a.aborted)) return;
  ui.results = Object.fromEntries(names.map((n, i) => [n, answers[i]]));
  ui.pending = false;
  const b = ui.results.battle;
  if (b?.ok && b.data.legal && b.data.dice >= 1 && state.flags > b.data.dice) {
    state.flags = b.data.dice;  // no more flags than dice: ask again for the retreat that can happen
    commit();
    return;
  }
  withFocusKept(renderResults);
}, 220);

// -- global controls --------------------------------------------------------------------------
function syncGlobalControls() {
  $('#board-kind').value = state.board;
  $('#board-face').value = state.face || DEFAULT_FACE || '';
  $('#bottom-side').value = state.bottom_side;
  $('#card').value = state.card || '';
  $('#combat-card').value = state.combat_card || '';
  $('#overrun-battle').checked = state.overrun_battle;
  $('#title').value = state.title;
  for (const box of $$('#special-rules input')) box.checked = state.rules.includes(box.value);
}

function buildGlobalControls() {
  const cardSelect = $('#card');
  const groups = {section: 'Section cards', tactic: 'Tactic cards'};
  for (const [type, label] of Object.entries(groups)) {
    const cards = content.p.command_cards.filter((c) => c.card_type === type);
    if (cards.length) cardSelect.append(h('optgroup', {label}, cards.map((c) => h('option', {value: c.id}, c.name))));
  }
  const combat = $('#combat-card');
  const decks = new Map();
  for (const c of content.p.combat_cards) {
    const label = c.special_action ? 'Special actions' : c.deck ? `${c.deck[0].toUpperCase()}${c.deck.slice(1)} deck` : 'Combat cards';
    if (!decks.has(label)) decks.set(label, []);
    decks.get(label).push(c);
  }
  for (const [label, cards] of decks) combat.append(h('optgroup', {label}, cards.map((c) => h('option', {value: c.id}, c.name))));
  const rules = $('#special-rules');
  if (!content.p.special_rules.length) rules.append(h('p', {class: 'muted small'}, 'No special rules in the content yet.'));
  for (const r of content.p.special_rules) {
    const id = `rule-${r.situation_id}`;
    const box = h('input', {type: 'checkbox', id, value: r.situation_id});
    box.addEventListener('change', () => {
      state.rules = state.rules.filter((x) => x !== r.situation_id);
      if (box.checked) state.rules.push(r.situation_id);
      commit();
    });
    rules.append(h('div', {class: 'rule-check'}, box, h('label', {for: id}, r.name), ' ', h('a', {href: content.ruleUrl(r.id), class: 'small', 'aria-label': `${r.name} rules`}, 'rule')));
  }
  $('#board-kind').addEventListener('change', (e) => {
    const kind = e.target.value;
    const bd = DATA.boards[kind];
    const fits = (p) => bd.hexes.some((x) => x.row === p.row && x.col === p.col);
    const lost = state.units.filter((u) => !fits(u)).length + [...state.hexes.keys()].filter((k) => { const [row, col] = k.split(',').map(Number); return !fits({row, col}); }).length;
    state.board = kind;
    state.units = state.units.filter(fits);
    for (const k of [...state.hexes.keys()]) { const [row, col] = k.split(',').map(Number); if (!fits({row, col})) state.hexes.delete(k); }
    if (!unitById(state, state.attacker)) state.attacker = null;
    if (!unitById(state, state.target)) state.target = null;
    ui.selected = null;
    board.zoom = null;
    board.setBoard(bd);
    commit({push: true});
    message(lost ? `${lost} thing(s) off the ${kind} board were removed.` : '');
  });
  $('#bottom-side').addEventListener('change', (e) => { state.bottom_side = e.target.value; commit(); });
  const faceSelect = $('#board-face');
  faceSelect.append(...[...FACES].map(([id, name]) => h('option', {value: id}, `${name}${id === DEFAULT_FACE ? ' (default)' : ''}`)));
  faceSelect.closest('.b-field').hidden = !FACES.size;
  // Only the look changes: the board is redrawn and the link updated, no ruling is asked again.
  faceSelect.addEventListener('change', (e) => {
    state.face = e.target.value && e.target.value !== DEFAULT_FACE ? e.target.value : null;
    commit({push: true, refresh: false});
  });
  $('#show-labels').addEventListener('click', (e) => {
    ui.labels = !ui.labels;
    e.currentTarget.setAttribute('aria-pressed', ui.labels ? 'true' : 'false');
    board.render(state, ui);
  });
  cardSelect.addEventListener('change', () => { state.card = cardSelect.value || null; commit(); });
  combat.addEventListener('change', () => { state.combat_card = combat.value || null; commit(); });
  $('#overrun-battle').addEventListener('change', (e) => { state.overrun_battle = e.target.checked; commit(); });
  $('#title').addEventListener('input', (e) => { state.title = e.target.value; scheduleUrl(false); });
  // Words hidden on a zoomed-out board are fitted to their hexes when they show again.
  const zoom = (factor) => { board.zoomBy(factor); board.render(state, ui); fitDock(); };
  $('#zoom-in').addEventListener('click', () => zoom(1.25));
  $('#zoom-out').addEventListener('click', () => zoom(0.8));
  $('#zoom-fit').addEventListener('click', () => zoom(0));
  $('#sheet-close').addEventListener('click', closeSheet);
  $('#b-summary').addEventListener('click', () => {
    if (wide.matches) return;
    ui.expanded = !ui.expanded;  // the sheet folds away meanwhile (the hex stays selected)
    render();
  });
  $('#copy-ruling').addEventListener('click', copyRuling);
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    if (ui.moving) { stopMove(); render(); } else if (ui.selected) closeSheet();
    else if (ui.expanded) { ui.expanded = false; render(); }
  });
  wide.addEventListener('change', () => render());
  // offline with the engine saved on this device, rulings still come (offline-engine.js says so)
  const offline = () => { $('#b-offline').hidden = navigator.onLine || offlineChoice() === 'on'; };
  window.addEventListener('online', () => { offline(); scheduleRefresh(); });
  window.addEventListener('offline', offline);
  offline();
  window.addEventListener('resize', debounce(() => { if (board.zoom === null) board.applyZoom(); fitDock(); }, 150));
  $('#copy-link').addEventListener('click', copyLink);
  $('#save').addEventListener('click', save);
  $('#clear').addEventListener('click', () => {
    load({...EMPTY, board: state.board, face: state.face, bottom_side: state.bottom_side}, {push: true});
    message('Board cleared. Your browser\'s Back button brings the previous situation back.');
  });
  $('#m44-file').addEventListener('change', importFile);
  window.addEventListener('popstate', () => fromLocation());
  window.addEventListener('hashchange', () => fromLocation());
}

/** "1 unit", "2 units". */
function count(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

function debounce(fn, wait) {
  let t = null;
  return (...args) => { clearTimeout(t); t = setTimeout(() => fn(...args), wait); };
}

// -- share, save, import, examples ------------------------------------------------------------
async function shareUrl() {
  const fragment = await encodeFragment(state);
  lastFragment = fragment;
  history.replaceState(null, '', `${location.pathname}#${fragment}`);
  return `${location.origin}/builder#${fragment}`;
}

function linkBox(url, label) {
  const input = h('input', {type: 'text', readonly: true, value: url, class: 'link-input', 'aria-label': label});
  input.addEventListener('focus', () => input.select());
  return h('div', {class: 'link-box'}, h('span', {class: 'label'}, label), input);
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

async function copyLink() {
  const url = await shareUrl();
  const ok = await copyText(url);
  fill($('#share-out'), h('p', {class: ok ? 'good' : ''}, ok ? 'Link copied.' : 'Copy this link:'), linkBox(url, 'Share link'));
}

/** The ruling as plain text a referee can paste into a chat or a forum post: the situation in
 * one line, the verdict, each dice step with its rule and source, and a short link. */
function rulingText(link) {
  const b = ui.results.battle?.data;
  const bd = currentBoard();
  const attacker = unitById(state, state.attacker);
  const target = unitById(state, state.target);
  if (!b || !attacker || !target) return '';
  const on = (u) => {
    const cell = state.hexes.get(key(u.row, u.col)) || {};
    const where = [cell.terrain ? content.name(cell.terrain) : null, cell.obstacle ? content.name(cell.obstacle) : null].filter(Boolean).join(' + ');
    return `${content.sideName(u.side)} ${content.unitName(u)} (${u.figures} figure${u.figures === 1 ? '' : 's'}) on ${hexLabel(bd, u)} (${where || 'countryside'})`;
  };
  const cite = (id) => (id ? ` [${content.name(id)}${content.p.cite?.[id] ? ` — ${content.p.cite[id]}` : ''}]` : '');
  const lines = [`${on(attacker)} battles ${on(target)}${b.distance != null ? `, range ${b.distance}` : ''}.`];
  if (state.card) lines.push(`Command card: ${content.name(state.card)}.`);
  if (state.combat_card) lines.push(`Combat card: ${content.name(state.combat_card)}.`);
  if (b.legal) lines.push(`Ruling: roll ${b.dice} ${b.dice === 1 ? 'die' : 'dice'}.`);
  else {
    lines.push('Ruling: the battle is not allowed.');
    for (const why of b.why_not || []) lines.push(`- ${typeof why === 'string' ? why : why.text}${typeof why === 'string' ? '' : cite(why.rule)}`);
  }
  for (const [i, step] of (b.breakdown || []).entries()) {
    const n = step.dice == null ? '' : i === 0 ? String(step.dice) : (step.dice > 0 ? `+${step.dice}` : String(step.dice).replace('-', '−'));
    lines.push(`  ${n.padStart(3)}  ${step.text || ''}${cite(step.rule)}`);
  }
  if (b.hit_symbols?.length) lines.push(`Hits on: ${b.hit_symbols.map((f) => content.name(f)).join(', ')}.`);
  if (b.legal && b.probabilities?.hits) lines.push(`Chance of at least one hit: ${pct(1 - b.probabilities.hits[0])}.`);
  const los = b.line_of_sight;
  if (los && los.needed !== false) lines.push(`Line of sight: ${los.clear ? 'clear' : 'blocked'}${cite('line_of_sight')}.`);
  lines.push(`Link: ${link}`);
  return lines.join('\n');
}

async function copyRuling() {
  const out = $('#copy-out');
  fill(out, h('p', {}, 'Preparing the text…'));
  let link = readonly ? location.href : null;
  if (!link) {
    const res = await postJSON(DATA.api.save, savedDoc(state));
    link = res.ok ? `${location.origin}${res.data.url}` : await shareUrl();
  }
  const text = rulingText(link);
  const ok = await copyText(text);
  const box = h('textarea', {class: 'copy-text', readonly: true, rows: 6, 'aria-label': 'The ruling as text'});
  box.value = text;
  fill(out, h('p', {class: ok ? 'good' : ''}, ok ? 'Ruling copied as text:' : 'Copy this text:'), box);
}

async function save() {
  const out = $('#share-out');
  const button = $('#save');
  button.disabled = true;
  fill(out, h('p', {}, 'Saving…'));
  const res = await postJSON(DATA.api.save, savedDoc(state));
  button.disabled = false;
  if (!res.ok) {
    fill(out, h('p', {class: 'r-error', role: 'alert'}, `Not saved: ${res.error.message}${res.error.field ? ` (field ${res.error.field})` : ''}`));
    return;
  }
  const url = `${location.origin}${res.data.url}`;
  const ok = await copyText(url);
  fill(out, h('p', {class: 'good'}, 'Saved. ', ok ? 'Short link copied: ' : 'Short link: ', h('a', {href: res.data.url, id: 'saved-link'}, res.data.url)),
    linkBox(url, 'Short link'));
}

async function importFile(event) {
  const file = event.target.files?.[0];
  const out = $('#import-out');
  if (!file) return;
  fill(out, h('p', {}, `Reading ${file.name}…`));
  let text;
  try {
    text = await file.text();
  } catch {
    fill(out, h('p', {class: 'r-error', role: 'alert'}, 'The file could not be read.'));
    return;
  }
  const res = await postJSON(DATA.api.import_m44, text);
  event.target.value = '';
  if (!res.ok) {
    fill(out, h('p', {class: 'r-error', role: 'alert'}, `Not imported: ${res.error.message}${res.error.field ? ` (field ${res.error.field})` : ''}`));
    return;
  }
  const d = res.data;
  load({...d.situation, title: d.title || file.name.replace(/\.m44$/i, '')}, {push: true});
  const bd = currentBoard();
  const where = (x) => (x.row === null || x.row === undefined ? 'whole board' : hexLabel(bd, x));
  const parts = [h('p', {class: 'good', id: 'import-result'}, `Imported ${d.title ? `“${d.title}”` : file.name}: ${count(d.situation.units.length, 'unit')}, ${count(d.situation.hexes.length, 'terrain hex', 'terrain hexes')} on the ${d.situation.board} board.`)];
  if (d.unknown.length) {
    parts.push(h('p', {class: 'warn strong'}, `${d.unknown.length} name${d.unknown.length === 1 ? '' : 's'} the rules content does not know (left off the board):`),
      h('table', {class: 'unknown-table', id: 'import-unknown'}, h('thead', {}, h('tr', {}, h('th', {}, 'Hex'), h('th', {}, 'What'), h('th', {}, 'Name'))),
        h('tbody', {}, d.unknown.map((u) => h('tr', {}, h('td', {}, where(u)), h('td', {}, u.what), h('td', {}, h('code', {}, u.name)))))));
  }
  if (d.skipped.length) {
    parts.push(h('p', {class: 'strong'}, 'Also left off:'),
      h('ul', {class: 'small'}, d.skipped.map((u) => h('li', {}, `${where(u)}: ${u.what} ${u.name ? `“${u.name}”` : ''} — ${u.reason}`))));
  }
  if (d.decorative?.length) {
    // Insignia, battle stars, barges: pieces with no rules, kept apart so a real unknown stands out.
    parts.push(h('details', {id: 'import-decorative', class: 'small muted'},
      h('summary', {}, `${count(d.decorative_total ?? d.decorative.length, 'decorative piece')} with no rules (not placed)`),
      h('ul', {}, d.decorative.map((u) => h('li', {}, `${where(u)}: ${u.what} “${u.name}” — ${u.reason}`)))));
  }
  if (d.notes.length) parts.push(h('ul', {class: 'small muted'}, d.notes.map((n) => h('li', {}, n))));
  fill(out, ...parts);
}

function buildExamples() {
  const list = $('#examples');
  if (!DATA.examples.length) {
    list.append(h('li', {class: 'muted'}, 'No examples yet.'));
    return;
  }
  for (const ex of DATA.examples) {
    list.append(h('li', {},
      h('button', {type: 'button', class: 'example', onclick: () => {
        load(ex.state, {push: true});
        if (ex.state.select) {
          const u = unitById(state, ex.state.select);
          if (u) { ui.selected = {row: u.row, col: u.col}; commit(); }
          // A movement example opens in move mode: the shading is the answer it shows.
          if (u && ex.endpoint === 'move' && !readonly) startMove(u);
        }
        message(`Loaded the example “${ex.title}”.`);
        $('#board-wrap').scrollIntoView({block: 'nearest'});
      }}, h('span', {class: 'example-title'}, ex.title)),
      ex.rule && content.ruleUrl(ex.rule) ? h('a', {class: 'example-rule', href: content.ruleUrl(ex.rule)}, content.name(ex.rule)) : null));
  }
}

async function fromLocation() {
  if (readonly) return;
  const fragment = location.hash.replace(/^#/, '');
  if (!fragment || fragment === lastFragment) return;
  try {
    const decoded = await decodeFragment(fragment);
    if (decoded) {
      lastFragment = fragment;
      load(decoded, {push: false});
    }
  } catch (err) {
    message(`This link is damaged (${err.message}); starting from an empty board.`, 'error');
  }
}

// -- start --------------------------------------------------------------------------------------
async function start() {
  $('#b-layout').hidden = false;
  if (!wide.matches) {
    // On a phone the board and the ruling come first; the longer lists start folded.
    $('#examples-box').open = false;
  }
  buildGlobalControls();
  buildExamples();
  if (readonly) {
    for (const el of $$('#cards-box select, #cards-box input, #title, #board-kind, #board-face, #bottom-side, #m44-file')) el.disabled = true;
    $('#import-box').hidden = true;
    $('#examples-box').hidden = true;
    $('#clear').hidden = true;
    $('#save').hidden = true;
    const copy = $('#copy-to-edit');
    copy.hidden = false;
    copy.addEventListener('click', async () => {
      location.href = `/builder#${await encodeFragment(state)}`;
    });
    state = newState(DATA.saved.situation);
    board.setBoard(currentBoard());
    syncGlobalControls();
    commit();
    requestAnimationFrame(() => board.reveal([unitById(state, state.attacker), unitById(state, state.target)].filter(Boolean)));
  } else {
    board.setBoard(currentBoard());
    if (location.hash.length > 1) await fromLocation();
    if (!lastFragment) {
      syncGlobalControls();
      commit();
    }
  }
  if (!wide.matches && !(state.card || state.combat_card || state.rules.length)) {
    $('#cards-box').open = false;
  }
  $('#builder').classList.add('ready');
}

if (DATA) start();
