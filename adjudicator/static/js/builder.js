// The situation builder's controller: it loads the page data, makes the parts below, hands each
// the few others it needs, and runs the one loop they share: a part changes the store and calls
// store.commit(); the controller then redraws every part, asks for new rulings and updates the
// share link. Our own ES modules, no framework, no external requests. docs/builder.md tells the
// same with how to add a control or a panel.
//
// The flow is built for one phone screen: the board stays put; tapping a hex opens a sheet of
// choices for that hex right at the bottom of the screen; tapping a unit offers attacker, target,
// edit, move. A one-line ruling stays in view and opens into tabs. On a wide screen the same
// sheet and ruling sit in the column beside the board.
//
// The modules, each with one job:
//   builder.js           this controller: page data, wiring, board taps, keys, the start
//   builder-store.js     the one owner of the situation, the selection and the view state;
//                        read through its getters, changed through its methods, then commit()
//   builder-state.js     the situation document: its shape, the API's and the save's JSON, the
//                        share-link encoding (pure functions)
//   builder-view.js      one render pass over the board and the panels; messages, focus kept
//   builder-board.js     the SVG hex board (drawing, keyboard, zoom, pinch)
//   builder-keys.js      keyboard shortcuts on a hex (units, terrain, obstacles, empty)
//   builder-overlay.js   what is drawn over the board (line of sight, retreats, move, fire map)
//   builder-sheet.js     the hex sheet: the choices for the tapped hex (a panel)
//   builder-ruling.js    the ruling box: tabs and the one-line ruling (a panel)
//   builder-results.js   the ruling's contents, drawn from the API's answers
//   builder-requests.js  the ruling requests after each change (battle, sight, retreat, re-supply)
//   builder-roll.js      roll entry: the faces rolled, sent to /resolve, the outcome told
//   builder-roll-tab.js  the Roll tab, and the outcome, take ground and overrun on the board
//   builder-move.js      move mode: /move, the shading, a tap moves the unit or says why not
//   builder-firemap.js   the selected unit's fire map (/fire-map)
//   builder-score.js     the score strip (/score) and the scenario's objectives and exits on the board
//   builder-orders.js    "Play a card": the units the card may order, ordered by taps (/order)
//   builder-settings.js  the controls around the board: board, face, side, cards, rules, zoom
//   builder-controls.js  form widgets: the unit form, steppers, selects, chips
//   builder-share.js     share link and history, copy link, save, copy the ruling, import, examples
//   builder-api.js       JSON requests with readable errors, and the offline fallback
//   offline-engine.js    offline rulings: the engine on this device, its offer and banner
//   builder-content.js   lookups over the palette the server built from the content
//   builder-dom.js       element creation without innerHTML, number formats

import {BoardView} from './builder-board.js';
import {Content} from './builder-content.js';
import {$, $$} from './builder-dom.js';
import {FireMap} from './builder-firemap.js';
import {Keys} from './builder-keys.js';
import {MoveMode} from './builder-move.js';
import {Orders} from './builder-orders.js';
import {Overlay} from './builder-overlay.js';
import {Requests} from './builder-requests.js';
import {Roll} from './builder-roll.js';
import {RollTab} from './builder-roll-tab.js';
import {Ruling} from './builder-ruling.js';
import {ScoreStrip} from './builder-score.js';
import {Settings} from './builder-settings.js';
import {Share} from './builder-share.js';
import {Sheet} from './builder-sheet.js';
import {Store} from './builder-store.js';
import {View, message, nextTask, withFocusKept} from './builder-view.js';
import {setupOffer, watchConnection} from './offline-engine.js';

/** The page data: one content-hashed JSON asset (cached for a year), plus the saved situation
 * carried in the page when there is one. */
async function loadData() {
  const savedEl = document.getElementById('builder-saved');
  try {
    const response = await fetch(document.getElementById('builder-data-url').href,
      {headers: {Accept: 'application/json'}});
    if (response.ok) return {...await response.json(), saved: savedEl ? JSON.parse(savedEl.textContent) : null};
  } catch { /* reported below */ }
  message('The builder could not load its data. Check the connection and reload the page.', 'error');
  $('.b-summary-text').textContent = 'No board: its data did not load.';
  return null;
}

function debounce(fn, wait) {
  let t = null;
  return (...args) => { clearTimeout(t); t = setTimeout(() => fn(...args), wait); };
}

/** Make the parts and wire them; returns what start() needs. */
function assemble(data) {
  const content = new Content(data.palette);
  const readonly = Boolean(data.saved);
  const wide = window.matchMedia('(min-width: 62rem)');
  // The board faces of the content (core rule `board_faces`): id -> name, and the one drawn by default.
  const faces = {names: new Map((data.faces?.list || []).map((f) => [f.id, f.name])),
    default: data.faces?.default || null, entry: data.faces?.entry};
  const parts = {};
  const redraw = {
    all: () => parts.view.render(),
    sheet: () => withFocusKept(() => parts.sheet.render()),
    ruling: () => withFocusKept(() => parts.ruling.render()),
    rulingBody: () => withFocusKept(() => { parts.ruling.renderBody(); parts.ruling.renderSummary(); }),
    verdict: () => withFocusKept(() => parts.ruling.renderSummary()),
    overlay: () => parts.overlay.draw(),
    dock: () => parts.view.fitDock(),
  };
  const onCommit = ({push, refresh, draw, link}) => {
    // The rulings are asked first: they are on their way while the change is drawn.
    if (refresh) parts.requests.schedule();
    if (draw) parts.view.render();
    if (!readonly && link) parts.share.scheduleUrl(push);
  };
  const store = new Store({boards: data.boards, faces: faces.names, content, onCommit});
  const board = new BoardView($('#board'), $('#board-wrap'), content,
    {onActivate: (row, col, keyboard) => onHex(row, col, keyboard),
      onKey: (row, col, event) => parts.keys.onHex(row, col, event)});
  board.defaultFace = faces.default;
  // A pinch redraws the words once it pauses (names are fitted again when they show).
  board.onZoom = debounce(() => board.render(store.state, store.ui), 120);
  const roll = new Roll(data.api.resolve, redraw.ruling, () => store.cardAttacksAlone());
  roll.onAnswer = () => parts.view.centreOn(store.target());
  const fire = new FireMap(data.api.fire_map, () => { redraw.sheet(); redraw.overlay(); });
  const centreOn = (p) => parts.view.centreOn(p);
  // Another situation (a share link opened in this tab, an example, an import, Clear) replaces
  // the whole of the last one, as if opened in a new tab: nothing stays selected, rolled,
  // ordered or said about it.
  const load = (next, {push = true} = {}) => {
    store.load(next);
    roll.after = null;
    parts.orders.active = false;
    message('');
    board.setBoard(store.board());
    parts.settings.sync();
    store.commit({push});
    const points = [store.attacker(), store.target()].filter(Boolean);
    board.centreView();
    board.reveal(points.length ? points : store.state.units);
  };
  const common = {store, content, board, readonly, wide, redraw};
  parts.keys = new Keys(common);
  parts.move = new MoveMode({...common, api: data.api.move, centreOn});
  parts.sheet = new Sheet({...common, move: parts.move, fire, keys: parts.keys});
  parts.rollTab = new RollTab({...common, roll, syncControls: () => parts.settings.sync()});
  parts.ruling = new Ruling({...common, rollTab: parts.rollTab});
  parts.score = new ScoreStrip({...common, api: data.api.score});
  parts.orders = new Orders({...common, api: data.api.order, syncControls: () => parts.settings.sync()});
  parts.overlay = new Overlay({store, content, board, roll, fire, score: parts.score, orders: parts.orders});
  parts.requests = new Requests({store, api: data.api, redraw});
  parts.share = new Share({...common, data, load, startMove: (unit) => parts.move.start(unit),
    showRuling: () => { store.setExpanded(true); redraw.all(); }});
  parts.settings = new Settings({...common, faces, load, scheduleUrl: (push) => parts.share.scheduleUrl(push)});
  // The panels drawn in each pass, in this order.
  parts.view = new View({...common, faces, fire, keys: parts.keys, orders: parts.orders,
    panels: [parts.sheet, parts.ruling, parts.score, parts.orders]});

  /** A tap (or Enter) on a hex: in move mode it moves the unit; else the hex's sheet opens. */
  function onHex(row, col, keyboard = false) {
    const unit = store.unitAt(row, col);
    message('');
    if (store.ui.moving && !readonly) {
      parts.move.tap(row, col, unit);
      return;
    }
    if (parts.orders.active && !readonly) {
      parts.orders.tap(row, col);
      return;
    }
    store.select({row, col}, {keepExpanded: false});
    store.commit({refresh: Boolean(unit && content.canResupply(unit))});
    // From the keyboard, the sheet's first choice takes the focus (Escape comes back here).
    if (keyboard) $('#sheet-body button, #sheet-body select, #sheet-body a')?.focus();
  }

  return {...parts, store, board, readonly, wide};
}

/** Keys, window events and the controls around the board, bound once. */
function bind({store, board, sheet, share, settings, view, requests, wide}) {
  settings.build();
  // "Skip to content" goes to the board itself here: its hex cursor takes the keyboard focus.
  document.querySelector('.skip')?.addEventListener('click', (e) => {
    e.preventDefault();
    board.cursor?.focus();
  });
  // While the board has the focus, the hint under it lists the keys.
  $('#board').addEventListener('focusin', () => view.renderHint());
  $('#board').addEventListener('focusout', () => requestAnimationFrame(() => view.renderHint()));
  $('#sheet-close').addEventListener('click', () => sheet.close());
  share.bind();
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    if (store.ui.moving) { store.stopMoving(); view.render(); } else if (store.ui.selected) sheet.close();
    else if (store.ui.expanded) { store.setExpanded(false); view.render(); }
  });
  wide.addEventListener('change', () => view.render());
  // offline with the engine saved on this device, rulings still come (offline-engine.js says so)
  watchConnection(() => requests.schedule());
  window.addEventListener('resize', debounce(() => {
    view.fitDock();
    if (board.zoom === null) board.applyZoom();
    view.fitDock();
  }, 150));
}

/** Let the browser breathe between the steps of the start: each step is a short task of its own
 * rather than one long one (on a phone at a quarter of this machine's speed, a task over ~12 ms
 * here blocks a tap). */
const pause = nextTask;

/** Hexes drawn per task on the start: each slice a few ms of a phone's time. */
const SLICE = 24;

/** Wait until the browser is idle (the first ruling drawn, on a slow phone), at most 700 ms. */
const idle = () => new Promise((resolve) => {
  if (window.requestIdleCallback) requestIdleCallback(() => resolve(), {timeout: 700});
  else setTimeout(resolve, 0);
});

/** The situation (the link's, or the saved one) read and its rulings asked before anything is
 * drawn, so they are on their way while the page draws. */
async function readSituation({store, share, readonly}, data) {
  const situation = readonly ? data.saved.situation : await share.readLocation();
  if (situation) store.load(situation);
  // The rulings leave now; drawn below. The link opened already holds the situation: it is
  // written again at the first change (not rewritten in the middle of the start).
  store.commit({push: false, draw: false, link: !situation});
  return situation;
}

/** The board, sized, then its hexes a slice a task, then scrolled to the battle. The page itself
 * already shows the frame at this size and the ruling line (templates/builder.html), so nothing is
 * seen to move. */
async function drawBoard({store, board, view, readonly}, situation) {
  board.premeasure();
  await pause();
  $('#builder').classList.add('started');
  view.fitDock(); // the layout's place on the page, before the board is sized to it
  board.setBoard(store.board());
  await pause();
  while (!board.render(store.state, store.ui, SLICE)) await pause();
  view.renderBoard(); // the rest of the pass: the legend's face, the hint (every hex is drawn)
  await pause();
  board.centreView();
  if (situation) {
    const points = [store.attacker(), store.target()].filter(Boolean);
    board.reveal(points.length || readonly ? points : store.state.units);
  }
}

/** The controls below the board, which nobody uses in the first second, bound when the browser
 * is idle, each part a task. */
async function finish(parts, offered) {
  const {store, share, settings, readonly} = parts;
  await idle();
  bind(parts);
  await pause();
  settings.sync();
  await pause();
  share.buildExamples();
  if (readonly) {
    const inputs = '#cards-box select, #cards-box input, #title, #board-kind, #board-face, #bottom-side, #m44-file';
    for (const el of $$(inputs)) el.disabled = true;
    $('#import-box').hidden = true;
    $('#examples-box').hidden = true;
    $('#clear').hidden = true;
    $('#save').hidden = true;
    share.bindCopyToEdit();
  }
  const {state} = store;
  if (state.card || state.combat_card || state.rules.length) $('#cards-box').open = true;
  // The lists show with the offer of offline rulings at their top already drawn (it never pushes
  // them down), or without it when its answer is slow.
  await Promise.race([offered, new Promise((resolve) => { setTimeout(resolve, 1500); })]);
  $('#builder').classList.add('listed');
  $('#builder').classList.add('ready');
  // The service worker's install (a precache of a few hundred requests) waits for this
  // (sw-register.js), so it never competes with the start.
  await idle();
  document.dispatchEvent(new Event('builder-ready'));
}

/** The start, in short tasks, the one the player waits for first: the situation read and its
 * rulings asked; the board; the ruling line (the page's own said what was happening) and the
 * panels, each in a task of its own (on a phone the ruling's body is folded under the line, and
 * beside the board it is the column's last part: nothing moves; the Play a card chooser, between
 * the board and the lists, is drawn before them); last the lists below the board. */
async function start(data, offered) {
  const parts = assemble(data);
  const {view, wide} = parts;
  if (!wide.matches) {
    // On a phone the board and the ruling come first; the longer lists start folded.
    $('#examples-box').open = false;
    $('#cards-box').open = false;
  }
  await pause();
  const situation = await readSituation(parts, data);
  await pause();
  await drawBoard(parts, situation);
  await pause();
  parts.ruling.renderSummary();
  view.fitDock();
  for (const panel of view.panels) {
    await pause();
    withFocusKept(() => panel.render());
  }
  view.fitDock();
  await finish(parts, offered);
}

// The offer of offline rulings is asked for at once, with the page data; the lists below the
// board show once it is drawn (the start does not wait for it: the rulings leave first).
const offered = setupOffer();
const data = await loadData();
if (data) start(data, offered);
