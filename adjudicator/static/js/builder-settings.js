// The page's own controls around the board: board kind and face, the bottom side, the command and
// combat cards, the special rules, the overrun switch, the title, zoom, hex labels and "Clear".
// build() fills them from the palette and binds them to the store once; sync() sets them from
// the situation after it was replaced (a link, an example, an import, an overrun).

import {$, $$, h} from './builder-dom.js';
import {EMPTY} from './builder-state.js';
import {message} from './builder-view.js';

export class Settings {
  /** `faces`: {names, default} of the page data; `load(next, opts)`: the controller's;
   * `scheduleUrl(push)`: the share link's update (builder-share.js); `redraw`: {all, …, dock}. */
  constructor({store, content, board, faces, load, scheduleUrl, redraw}) {
    Object.assign(this, {store, content, board, faces, load, scheduleUrl, redraw});
  }

  sync() {
    const {state} = this.store;
    $('#board-kind').value = state.board;
    $('#board-face').value = state.face || this.faces.default || '';
    $('#bottom-side').value = state.bottom_side;
    $('#card').value = state.card || '';
    $('#combat-card').value = state.combat_card || '';
    $('#overrun-battle').checked = state.overrun_battle;
    $('#title').value = state.title;
    for (const box of $$('#special-rules input')) box.checked = state.rules.includes(box.value);
  }

  build() {
    this.buildCards();
    this.buildRules();
    this.bindBoard();
    const {store, board} = this;
    const set = (name, value, options) => { store.setField(name, value); store.commit(options); };
    $('#card').addEventListener('change', (e) => set('card', e.target.value || null));
    $('#combat-card').addEventListener('change', (e) => set('combat_card', e.target.value || null));
    $('#overrun-battle').addEventListener('change', (e) => set('overrun_battle', e.target.checked));
    $('#bottom-side').addEventListener('change', (e) => set('bottom_side', e.target.value));
    $('#title').addEventListener('input', (e) => { store.setField('title', e.target.value); this.scheduleUrl(false); });
    $('#show-labels').addEventListener('click', (e) => {
      e.currentTarget.setAttribute('aria-pressed', store.toggleLabels() ? 'true' : 'false');
      board.render(store.state, store.ui);
    });
    // Words hidden on a zoomed-out board are fitted to their hexes when they show again.
    const zoom = (factor) => { board.zoomBy(factor); board.render(store.state, store.ui); this.redraw.dock(); };
    $('#zoom-in').addEventListener('click', () => zoom(1.25));
    $('#zoom-out').addEventListener('click', () => zoom(0.8));
    $('#zoom-fit').addEventListener('click', () => zoom(0));
    $('#clear').addEventListener('click', () => {
      const {state} = store;
      this.load({...EMPTY, board: state.board, face: state.face, bottom_side: state.bottom_side}, {push: true});
      message('Board cleared. Your browser\'s Back button brings the previous situation back.');
    });
  }

  /** The command cards by type, the combat cards by deck. */
  buildCards() {
    const {content} = this;
    const cardSelect = $('#card');
    const groups = {section: 'Section cards', tactic: 'Tactic cards'};
    for (const [type, label] of Object.entries(groups)) {
      const cards = content.p.command_cards.filter((c) => c.card_type === type);
      if (cards.length) cardSelect.append(h('optgroup', {label}, cards.map((c) => h('option', {value: c.id}, c.name))));
    }
    const combat = $('#combat-card');
    const decks = new Map();
    for (const c of content.p.combat_cards) {
      const label = c.special_action ? 'Special actions'
        : c.deck ? `${c.deck[0].toUpperCase()}${c.deck.slice(1)} deck` : 'Combat cards';
      if (!decks.has(label)) decks.set(label, []);
      decks.get(label).push(c);
    }
    for (const [label, cards] of decks) combat.append(h('optgroup', {label},
      cards.map((c) => h('option', {value: c.id}, c.name))));
  }

  /** A checkbox for each special rule of the content, with a link to its page. */
  buildRules() {
    const {store, content} = this;
    const rules = $('#special-rules');
    if (!content.p.special_rules.length) rules.append(h('p', {class: 'muted small'},
      'No special rules in the content yet.'));
    for (const r of content.p.special_rules) {
      const id = `rule-${r.situation_id}`;
      const box = h('input', {type: 'checkbox', id, value: r.situation_id});
      box.addEventListener('change', () => {
        store.setRule(r.situation_id, box.checked);
        store.commit();
      });
      rules.append(h('div', {class: 'rule-check'}, box, h('label', {for: id}, r.name), ' ',
        h('a', {href: content.ruleUrl(r.id), class: 'small', 'aria-label': `${r.name} rules`}, 'rule')));
    }
  }

  /** The board kind (what does not fit is removed, and said) and its printed face. */
  bindBoard() {
    const {store, board, faces} = this;
    $('#board-kind').addEventListener('change', (e) => {
      const kind = e.target.value;
      const lost = store.changeBoard(kind);
      board.zoom = null;
      board.setBoard(store.board());
      store.commit({push: true});
      message(lost ? `${lost} thing(s) off the ${kind} board were removed.` : '');
    });
    const faceSelect = $('#board-face');
    faceSelect.append(...[...faces.names].map(([id, name]) => h('option', {value: id},
      `${name}${id === faces.default ? ' (default)' : ''}`)));
    faceSelect.closest('.b-field').hidden = !faces.names.size;
    // Only the look changes: the board is redrawn and the link updated, no ruling is asked again.
    faceSelect.addEventListener('change', (e) => {
      store.setField('face', e.target.value && e.target.value !== faces.default ? e.target.value : null);
      store.commit({push: true, refresh: false});
    });
  }
}
