// One render pass of the builder: the board, the legend's board face, the hint, each panel of the
// page (the hex sheet, the ruling, and any panel the controller registers), and the dock that
// keeps them below the board on a phone. It only reads the store (builder-store.js).

import {$, fill, h} from './builder-dom.js';

/** The message bar above the board (an empty text hides it). */
export function message(text, kind = 'info') {
  const el = $('#b-message');
  el.hidden = !text;
  el.className = `b-message ${kind}`;
  el.textContent = text || '';
}

/** A new task (a message to ourselves): what follows runs after what is already waiting (a
 * ruling's answer is drawn between two steps of the start), without the timers' 4 ms clamp. Not
 * `scheduler.yield()`: its continuations run before the answers' tasks, so a whole start ran
 * before its verdict was drawn. */
export function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/** The one-line hint under the board. */
export function hint(text) {
  $('#b-hint').textContent = text;
}

/** Run `fn`, a redraw, keeping the keyboard focus on the same control (its `data-fk`). */
export function withFocusKept(fn) {
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

/** Scroll the panels holding `el` (the dock, the ruling's body) just enough that it is on screen,
 * never the page: the board stays where it is. */
export function bringIntoView(el) {
  if (!el) return;
  for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
    if (!/(auto|scroll)/.test(getComputedStyle(box).overflowY) || box.scrollHeight <= box.clientHeight) continue;
    const r = el.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    const top = Math.max(b.top, 0);
    const bottom = Math.min(b.bottom, window.innerHeight);
    if (r.bottom > bottom) box.scrollTop += Math.max(0, Math.min(r.bottom - bottom + 8, r.top - top - 8));
    else if (r.top < top) box.scrollTop -= top - r.top + 8;
  }
}

export class View {
  /** `panels`: the parts of the page drawn in each pass, in order, each with a render(). */
  constructor({store, board, content, faces, fire, keys, orders, readonly, wide, panels}) {
    Object.assign(this, {store, board, content, faces, fire, keys, orders, readonly, wide, panels});
  }

  /** The hint under the board: the keys while the board has the keyboard focus. */
  renderHint() {
    const focused = document.activeElement?.closest?.('#board');
    hint(focused && !this.readonly && !this.store.ui.moving ? this.keys.help() : this.toolHint());
  }

  render() {
    this.renderBoard();
    this.renderPanels();
  }

  /** The board and what is said about it (the legend's face, the hint). */
  renderBoard() {
    const {store, board} = this;
    this.fire.update(store.state, store.ui.moving ? null : store.selectedUnit());
    board.render(store.state, store.ui);
    this.renderFace();
    this.renderHint();
  }

  /** Each panel, then the dock fitted to them. */
  renderPanels() {
    withFocusKept(() => {
      for (const panel of this.panels) panel.render();
    });
    this.fitDock();
  }

  toolHint() {
    const {store, content} = this;
    if (this.readonly) return 'Tap a hex to see what is on it.';
    if (store.ui.moving) {
      const u = store.unitById(store.ui.moving);
      if (!u) return '';
      return `Moving ${content.sideName(u.side)} ${content.unitName(u)}: tap a shaded hex to move it there; `
        + 'tap another to hear why not (Esc cancels).';
    }
    if (this.orders.active) return this.orders.hint();
    if (!store.state.units.length) return 'Tap a hex to put a unit, terrain or an obstacle on it.';
    return 'Tap a hex to change it; tap a unit to make it the attacker or the target.';
  }

  /** The legend says which face the board is drawn in; the face is only a look (core rule `board_faces`). */
  renderFace() {
    const item = $('#legend-face');
    if (!item) return;
    const {state} = this.store;
    const {names, entry} = this.faces;
    const face = state.face || this.faces.default;
    item.hidden = !names.size;
    const rule = entry ? this.content.ruleUrl(entry) : null;
    fill(item, h('span', {class: 'lg-hex t-open', 'data-face': face, 'aria-hidden': 'true'}), ' Board face: ',
      h('strong', {id: 'legend-face-name'}, names.get(face) || face || 'none'),
      ` — the printed look of the board${state.face ? '' : ' (none given: the default)'}; it changes no rule`,
      rule ? [' (', h('a', {href: rule}, 'board faces'), ')'] : null, '.');
  }

  /** Where the layout starts on the page (--b-top): on a phone the board takes the screen below
   * it that the dock leaves, and sideways the board and the dock are exactly as tall as the rest
   * of the screen. The docked sheet and ruling take the screen below the board, never the board. */
  fitDock() {
    const layout = $('#b-layout');
    const dock = $('#b-dock');
    // The dock's position and the layout's top are read before --b-top is written (a write between
    // two reads lays the page out twice); the frame's bottom, after: it moves with --b-top.
    const docked = !this.wide.matches && getComputedStyle(dock).position === 'fixed';
    const top = layout.getBoundingClientRect().top + window.scrollY;
    for (const el of [$('#board-wrap'), $('.b-main'), dock]) {
      if (el.style.getPropertyValue('--b-top') !== `${top}px`) el.style.setProperty('--b-top', `${top}px`);
    }
    if (!docked) {
      dock.style.removeProperty('--dock-max');
      return;
    }
    const bottom = $('.b-board-frame').getBoundingClientRect().bottom + window.scrollY;
    dock.style.setProperty('--dock-max', `${Math.max(window.innerHeight - bottom, window.innerHeight * 0.3)}px`);
  }

  /** Bring a hex well inside the board's view. */
  centreOn(p) {
    if (p) this.board.reveal([p]);
  }
}
