// The situation builder: state, tools, and the live ruling from the JSON API.
// Our own ES modules, no framework, no external requests. See builder-state.js for the
// share-link format.

import {BoardView} from './builder-board.js';
import {postJSON, debounced} from './builder-api.js';
import {Content} from './builder-content.js';
import {h, $, $$, fill, pct} from './builder-dom.js';
import {renderRuling, hexLabel} from './builder-results.js';
import {select, segmented, unitFields, settleFigures} from './builder-controls.js';
import {
  EMPTY, newState, situationDoc, savedDoc, encodeFragment, decodeFragment, key, nextUnitId, unitAt, unitById,
} from './builder-state.js';

const DATA = JSON.parse($('#builder-data').textContent);
const content = new Content(DATA.palette);
const readonly = Boolean(DATA.saved);

let state = newState(EMPTY);
const ui = {
  tool: 'select',
  terrain: null,
  obstacle: null,
  obstacleOwner: null,
  template: null,
  selected: null,
  moving: null,
  labels: false,
  results: {},
  highlight: null,
  pending: false,
};
let lastFragment = null;

const board = new BoardView($('#board'), $('#board-wrap'), content, {onActivate: onHex});

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
    return u ? `Moving ${content.sideName(u.side)} ${content.unitName(u)}: tap the hex to move it to (Esc cancels).` : '';
  }
  switch (ui.tool) {
    case 'terrain': return ui.terrain ? `Tap hexes to lay ${content.name(ui.terrain)}; tap one again to clear it.` : 'Choose a terrain below, then tap hexes.';
    case 'obstacle': return ui.obstacle ? `Tap hexes to place ${content.name(ui.obstacle)}; tap one again to remove it.` : 'Choose an obstacle below, then tap hexes.';
    case 'unit': return `Tap an empty hex to place ${content.sideName(ui.template.side)} ${content.unitName(ui.template)}.`;
    case 'erase': return 'Tap a hex to remove its unit, then its obstacle, then its terrain.';
    default: return 'Tap a hex to select it. Its contents can be changed below.';
  }
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
  ui.selected = null;
  ui.moving = null;
  ui.results = {};
  board.setBoard(currentBoard());
  syncGlobalControls();
  commit({push});
  const points = [unitById(state, state.attacker), unitById(state, state.target)].filter(Boolean);
  requestAnimationFrame(() => board.reveal(points.length ? points : state.units));
  if (note) message(note, 'info');
}

// -- board taps -------------------------------------------------------------------------------
function onHex(row, col) {
  const unit = unitAt(state, row, col);
  const cellKey = key(row, col);
  if (readonly) {
    ui.selected = {row, col};
    return commit({refresh: Boolean(unit && content.canResupply(unit))});
  }
  message('');
  if (ui.moving) {
    const mover = unitById(state, ui.moving);
    if (unit && unit !== mover) {
      hint(`${hexLabel(currentBoard(), {row, col})} is occupied; pick an empty hex (Esc cancels).`);
      return;
    }
    if (mover) { mover.row = row; mover.col = col; }
    ui.moving = null;
    ui.selected = {row, col};
    return commit();
  }
  const cell = state.hexes.get(cellKey) || {terrain: null, obstacle: null, owner: null};
  switch (ui.tool) {
    case 'terrain':
      if (!ui.terrain) return hint('Choose a terrain first.');
      cell.terrain = cell.terrain === ui.terrain ? null : ui.terrain;
      break;
    case 'obstacle':
      if (!ui.obstacle) return hint('Choose an obstacle first.');
      if (cell.obstacle === ui.obstacle) { cell.obstacle = null; cell.owner = null; }
      else { cell.obstacle = ui.obstacle; cell.owner = content.obstacles.get(ui.obstacle)?.owner_matters ? ui.obstacleOwner : null; }
      break;
    case 'unit':
      if (unit) { ui.selected = {row, col}; return commit({refresh: false}); }
      placeUnit(row, col);
      ui.selected = {row, col};
      return commit();
    case 'erase':
      if (unit) removeUnit(unit);
      else if (cell.obstacle) { cell.obstacle = null; cell.owner = null; }
      else cell.terrain = null;
      break;
    default:
      ui.selected = {row, col};
      return commit({refresh: Boolean(unit && content.canResupply(unit))});
  }
  if (cell.terrain || cell.obstacle) state.hexes.set(cellKey, cell);
  else state.hexes.delete(cellKey);
  ui.selected = {row, col};
  commit();
}

function placeUnit(row, col) {
  const t = ui.template;
  const unit = {
    id: nextUnitId(state), side: t.side, type: t.type, row, col, figures: t.figures,
    start_figures: t.start_figures, badges: [...t.badges], nation: t.nation, moved: t.moved || 0,
  };
  state.units.push(unit);
  const attacker = unitById(state, state.attacker);
  if (!attacker) state.attacker = unit.id;
  else if (!unitById(state, state.target) && attacker.side !== unit.side) state.target = unit.id;
  return unit;
}

function removeUnit(unit) {
  state.units = state.units.filter((u) => u !== unit);
  if (state.attacker === unit.id) state.attacker = null;
  if (state.target === unit.id) state.target = null;
  if (ui.moving === unit.id) ui.moving = null;
}

// -- rendering --------------------------------------------------------------------------------
function withFocusKept(fn) {
  const fk = document.activeElement?.dataset?.fk;
  fn();
  if (fk) {
    const again = document.querySelector(`[data-fk="${CSS.escape(fk)}"]`);
    if (again && !again.disabled) again.focus({preventScroll: true});
  }
}

function render() {
  board.render(state, ui);
  hint(toolHint());
  withFocusKept(() => {
    renderToolPanel();
    renderSelection();
    renderResults();
  });
}

function renderToolPanel() {
  if (readonly) return;
  for (const b of $$('.tool')) b.setAttribute('aria-pressed', b.dataset.tool === ui.tool ? 'true' : 'false');
  const panel = $('#tool-panel');
  switch (ui.tool) {
    case 'terrain':
      fill(panel, select({label: 'Terrain to lay', value: ui.terrain, fk: 'tool-terrain', empty: 'Choose…',
        options: content.p.terrain.map((t) => ({value: t.id, label: t.name})),
        onChange: (v) => { ui.terrain = v; remember('terrain', v); render(); }}),
      recentChips('terrain'),
      ui.terrain ? summaryLine(ui.terrain) : null);
      break;
    case 'obstacle': {
      const needsOwner = ui.obstacle && content.obstacles.get(ui.obstacle)?.owner_matters;
      fill(panel, select({label: 'Obstacle to place', value: ui.obstacle, fk: 'tool-obstacle', empty: 'Choose…',
        options: content.p.obstacles.map((o) => ({value: o.id, label: o.name})),
        onChange: (v) => { ui.obstacle = v; remember('obstacle', v); render(); }}),
      recentChips('obstacle'),
      needsOwner ? segmented({label: 'Original owner', value: ui.obstacleOwner || '', fk: 'tool-owner',
        options: [{value: '', label: 'Not set'}, {value: 'allies', label: 'Allies'}, {value: 'axis', label: 'Axis'}],
        onChange: (v) => { ui.obstacleOwner = v || null; render(); }}) : null,
      ui.obstacle ? summaryLine(ui.obstacle) : null);
      break;
    }
    case 'unit':
      fill(panel, h('div', {class: 'b-form unit-form'}, unitFields(content, ui.template, () => render(), {fk: 'tpl', withMoved: false})),
        summaryLine(content.profile(ui.template)?.id || ui.template.type));
      break;
    default:
      fill(panel);
  }
}

/** The last few terrains (or obstacles) chosen, one tap away. */
const recent = {terrain: [], obstacle: []};

function remember(kind, id) {
  if (!id) return;
  recent[kind] = [id, ...recent[kind].filter((x) => x !== id)].slice(0, 6);
}

function recentChips(kind) {
  if (recent[kind].length < 2) return null;
  return h('div', {class: 'recent', role: 'group', 'aria-label': `Recently used ${kind}`},
    recent[kind].map((id) => h('button', {type: 'button', class: 'chip-btn', 'data-fk': `recent-${kind}-${id}`,
      'aria-pressed': ui[kind] === id ? 'true' : 'false', onclick: () => { ui[kind] = id; render(); }}, content.name(id))));
}

function summaryLine(id) {
  const item = content.hexFeature(id) || content.units.get(id);
  if (!item) return null;
  return h('p', {class: 'palette-summary'}, item.summary, ' ', h('a', {href: content.ruleUrl(id)}, `${content.name(id)} rules`));
}

function renderSelection() {
  const body = $('#selection-body');
  const heading = $('#selection-h');
  if (!ui.selected) {
    heading.textContent = 'Selected hex';
    fill(body, h('p', {class: 'muted'}, readonly ? 'Tap a hex to see what is on it.' : 'Nothing selected. Tap a hex on the board (or use the arrow keys and Enter).'));
    return;
  }
  const {row, col} = ui.selected;
  const bd = currentBoard();
  const hx = bd.hexes.find((x) => x.row === row && x.col === col);
  if (!hx) { ui.selected = null; return renderSelection(); }
  const cellKey = key(row, col);
  const cell = state.hexes.get(cellKey) || {terrain: null, obstacle: null, owner: null};
  const unit = unitAt(state, row, col);
  heading.textContent = `Hex ${hx.label}`;
  const parts = [h('p', {class: 'muted small'}, `Row ${row}, column ${col} · ${hx.sections.length > 1 ? `on the line between the ${hx.sections.join(' and ')} sections` : `${hx.sections[0]} section`} (as the bottom player sees it)`)];

  const setCell = (mutate) => {
    mutate(cell);
    if (cell.terrain || cell.obstacle) state.hexes.set(cellKey, cell);
    else state.hexes.delete(cellKey);
    commit();
  };
  if (readonly) {
    parts.push(h('dl', {class: 'facts-list'},
      h('dt', {}, 'Terrain'), h('dd', {}, cell.terrain ? h('a', {href: content.ruleUrl(cell.terrain)}, content.name(cell.terrain)) : 'Countryside'),
      cell.obstacle ? [h('dt', {}, 'Obstacle'), h('dd', {}, h('a', {href: content.ruleUrl(cell.obstacle)}, content.name(cell.obstacle)), cell.owner ? ` (owner: ${cell.owner})` : '')] : null,
      unit ? [h('dt', {}, 'Unit'), h('dd', {}, `${content.sideName(unit.side)} ${content.unitName(unit)}, ${unit.figures}/${content.startFigures(unit)} figures${unit.badges.length ? `, ${unit.badges.map((b) => content.name(b)).join(', ')}` : ''}${unit.moved ? `, moved ${unit.moved}` : ''}`)] : null));
    fill(body, ...parts);
    return;
  }
  const feature = content.obstacles.get(cell.obstacle);
  parts.push(h('div', {class: 'b-row tight'},
    select({label: 'Terrain', value: cell.terrain, empty: 'Countryside', fk: 'sel-terrain',
      options: content.p.terrain.map((t) => ({value: t.id, label: t.name})), onChange: (v) => setCell((c) => { c.terrain = v; })}),
    select({label: 'Obstacle', value: cell.obstacle, empty: 'None', fk: 'sel-obstacle',
      options: content.p.obstacles.map((o) => ({value: o.id, label: o.name})), onChange: (v) => setCell((c) => { c.obstacle = v; if (!v) c.owner = null; })})));
  if (feature?.owner_matters || cell.owner || content.terrain.get(cell.terrain)?.owner_matters) {
    parts.push(segmented({label: 'Original owner of the hex', value: cell.owner || '', fk: 'sel-owner',
      options: [{value: '', label: 'Not set'}, {value: 'allies', label: 'Allies'}, {value: 'axis', label: 'Axis'}],
      onChange: (v) => setCell((c) => { c.owner = v || null; })}));
  }
  if (unit) {
    parts.push(h('h3', {class: 'unit-h'}, `${content.sideName(unit.side)} ${content.unitName(unit)}`, h('span', {class: 'muted'}, ` · id ${unit.id}`)));
    parts.push(h('div', {class: 'roles'},
      h('button', {type: 'button', class: 'button role-btn atk', 'aria-pressed': state.attacker === unit.id ? 'true' : 'false', 'data-fk': 'role-a',
        onclick: () => { state.attacker = state.attacker === unit.id ? null : unit.id; if (state.target === unit.id && state.attacker === unit.id) state.target = null; commit(); }}, 'Attacker'),
      h('button', {type: 'button', class: 'button role-btn tgt', 'aria-pressed': state.target === unit.id ? 'true' : 'false', 'data-fk': 'role-t',
        onclick: () => { state.target = state.target === unit.id ? null : unit.id; if (state.attacker === unit.id && state.target === unit.id) state.attacker = null; commit(); }}, 'Target'),
      h('button', {type: 'button', class: 'button secondary', 'data-fk': 'move', 'aria-pressed': ui.moving === unit.id ? 'true' : 'false',
        onclick: () => { ui.moving = ui.moving === unit.id ? null : unit.id; render(); if (ui.moving) board.focusHex(unit.row, unit.col); }}, ui.moving === unit.id ? 'Cancel' : 'Move…'),
      h('button', {type: 'button', class: 'button danger', 'data-fk': 'remove', onclick: () => { removeUnit(unit); commit(); }}, 'Remove')));
    parts.push(h('div', {class: 'b-form unit-form'}, unitFields(content, unit, () => commit(), {fk: 'unit'})));
  } else {
    parts.push(h('div', {class: 'b-buttons'}, h('button', {type: 'button', class: 'button secondary', 'data-fk': 'place-here',
      onclick: () => { placeUnit(row, col); commit(); }}, `Place ${content.sideName(ui.template.side)} ${content.unitName(ui.template)} here`)));
  }
  fill(body, ...parts);
}

function selectedSupplier() {
  if (!ui.selected) return null;
  const unit = unitAt(state, ui.selected.row, ui.selected.col);
  return unit && content.canResupply(unit) ? unit : null;
}

function renderResults() {
  const attacker = unitById(state, state.attacker);
  const target = unitById(state, state.target);
  renderRuling($('#ruling'), {
    r: ui.results, state, content, board: currentBoard(), attacker, target, supplier: selectedSupplier(), pending: ui.pending,
    onFlags: (n) => { state.flags = n; ui.highlight = null; commit(); },
    onHighlight: (i) => { ui.highlight = i; drawOverlay(); },
  });
  drawOverlay();
  renderSummary();
}

function renderSummary() {
  const el = $('#b-summary');
  const b = ui.results.battle;
  const attacker = unitById(state, state.attacker);
  const target = unitById(state, state.target);
  el.className = 'b-summary';
  if (!attacker || !target) { fill(el); return; }
  if (ui.pending && !b) { fill(el, h('span', {}, 'Working it out…')); return; }
  if (!b) { fill(el); return; }
  if (!b.ok) { el.classList.add('error'); fill(el, h('span', {}, '⚠ ', b.error.message)); return; }
  const d = b.data;
  el.classList.add(d.legal ? 'legal' : 'illegal');
  if (ui.pending) el.classList.add('pending');
  const los = d.line_of_sight;
  const bits = d.legal ? [`✔ ${d.dice} ${d.dice === 1 ? 'die' : 'dice'}`] : ['✖ Not allowed'];
  if (los?.needed !== false) bits.push(los?.clear ? 'line of sight clear' : 'no line of sight');
  if (d.legal && d.probabilities?.hits) bits.push(`${pct(1 - d.probabilities.hits[0])} at least 1 hit`);
  fill(el, h('a', {href: '#ruling-h'}, bits.join(' · ')));
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
  board.setOverlay({
    los: attacker && target && r.los?.ok ? r.los.data : null, from: attacker, to: target,
    // Retreats are drawn for a battle that may happen, or while one option is pointed at.
    retreat: target && r.retreat?.ok && (!attacker || (r.battle?.ok && r.battle.data.legal) || ui.highlight !== null) ? r.retreat.data : null,
    retreatFrom: target,
    highlight: ui.highlight, resupply, errorHex,
  });
}

// -- the API ----------------------------------------------------------------------------------
const scheduleRefresh = debounced(async (signal) => {
  const doc = situationDoc(state);
  const attacker = unitById(state, state.attacker);
  const target = unitById(state, state.target);
  const supplier = selectedSupplier();
  const jobs = {};
  if (attacker && target) {
    const battle = {...doc, attacker: attacker.id, target: target.id};
    if (state.card) battle.card = state.card;
    if (state.combat_card) battle.combat_card = state.combat_card;
    if (state.overrun_battle) battle.overrun_battle = true;
    jobs.battle = postJSON(DATA.api.battle, battle, signal);
    jobs.los = postJSON(DATA.api.line_of_sight, {...doc, from: {row: attacker.row, col: attacker.col}, to: {row: target.row, col: target.col}}, signal);
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
  withFocusKept(renderResults);
}, 220);

// -- global controls --------------------------------------------------------------------------
function syncGlobalControls() {
  $('#board-kind').value = state.board;
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
  $('#show-labels').addEventListener('click', (e) => {
    ui.labels = !ui.labels;
    e.currentTarget.setAttribute('aria-pressed', ui.labels ? 'true' : 'false');
    board.render(state, ui);
  });
  cardSelect.addEventListener('change', () => { state.card = cardSelect.value || null; commit(); });
  combat.addEventListener('change', () => { state.combat_card = combat.value || null; commit(); });
  $('#overrun-battle').addEventListener('change', (e) => { state.overrun_battle = e.target.checked; commit(); });
  $('#title').addEventListener('input', (e) => { state.title = e.target.value; scheduleUrl(false); });
  $('#zoom-in').addEventListener('click', () => board.zoomBy(1.25));
  $('#zoom-out').addEventListener('click', () => board.zoomBy(0.8));
  $('#zoom-fit').addEventListener('click', () => board.zoomBy(0));
  for (const b of $$('.tool')) {
    b.addEventListener('click', () => { ui.tool = b.dataset.tool; ui.moving = null; render(); });
  }
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && ui.moving) { ui.moving = null; render(); }
  });
  window.addEventListener('resize', debounce(() => { if (board.zoom === null) board.applyZoom(); }, 150));
  $('#copy-link').addEventListener('click', copyLink);
  $('#save').addEventListener('click', save);
  $('#clear').addEventListener('click', () => {
    load({...EMPTY, board: state.board, bottom_side: state.bottom_side}, {push: true});
    message('Board cleared. Your browser\'s Back button brings the previous situation back.');
  });
  $('#m44-file').addEventListener('change', importFile);
  window.addEventListener('popstate', () => fromLocation());
  window.addEventListener('hashchange', () => fromLocation());
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
  const parts = [h('p', {class: 'good', id: 'import-result'}, `Imported ${d.title ? `“${d.title}”` : file.name}: ${d.situation.units.length} units, ${d.situation.hexes.length} terrain hexes on the ${d.situation.board} board.`)];
  if (d.unknown.length) {
    parts.push(h('p', {class: 'warn strong'}, `${d.unknown.length} name${d.unknown.length === 1 ? '' : 's'} the rules content does not know (left off the board):`),
      h('table', {class: 'unknown-table', id: 'import-unknown'}, h('thead', {}, h('tr', {}, h('th', {}, 'Hex'), h('th', {}, 'What'), h('th', {}, 'Name'))),
        h('tbody', {}, d.unknown.map((u) => h('tr', {}, h('td', {}, where(u)), h('td', {}, u.what), h('td', {}, h('code', {}, u.name)))))));
  }
  if (d.skipped.length) {
    parts.push(h('p', {class: 'strong'}, 'Also left off:'),
      h('ul', {class: 'small'}, d.skipped.map((u) => h('li', {}, `${where(u)}: ${u.what} ${u.name ? `“${u.name}”` : ''} — ${u.reason}`))));
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
function defaultTemplate() {
  const type = content.units.has('infantry') ? 'infantry' : content.p.units[0]?.id;
  const t = {side: 'allies', type, badges: [], nation: null, start_figures: null, figures: null, moved: 0};
  settleFigures(content, t, true);
  return t;
}

async function start() {
  $('#b-layout').hidden = false;
  if (!window.matchMedia('(min-width: 62rem)').matches) {
    // On a phone the board and the ruling come first; the longer lists start folded.
    $('#examples-box').open = false;
  }
  ui.template = defaultTemplate();
  buildGlobalControls();
  buildExamples();
  if (readonly) {
    $('#b-edit').hidden = true;
    for (const el of $$('#cards-box select, #cards-box input, #title, #board-kind, #bottom-side, #m44-file')) el.disabled = true;
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
  if (!window.matchMedia('(min-width: 62rem)').matches && !(state.card || state.combat_card || state.rules.length)) {
    $('#cards-box').open = false;
  }
  $('#builder').classList.add('ready');
}

start();
